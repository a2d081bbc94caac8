/*
 * Voz embeddable player, served minified at GET /embed.js (see docs/embed.md). Source of truth: this file;
 * lambdas/narration/widget/build.ts minifies it to ES2019 into embed.generated.ts, which the Lambda serves.
 *
 *   <script src="https://API/embed.js" data-audio-id="ID" async></script>      plays an existing audio
 *   <script src="https://API/embed.js" data-narrate="page" async></script>    narrates this page on click
 *   <script src="https://API/embed.js" data-feed="fd_…" async></script>       plays this page's narration from a feed
 *     (GET /feeds/{id}/article?url=<canonical or current address>) and sends listen beacons (POST /listens:
 *     play, 25/50/75/100 %, seek; once each per page view, sendBeacon, nothing about the reader)
 *   optional: data-voice="es-ES-Lucia"  data-fmt="mp3|ogg|wav"  data-title="…"  data-target="#css-selector"
 *             data-follow="#article" (highlight what is read in that element, click a sentence to jump there;
 *             may be set, changed or removed later, on the script tag or on <voz-player>)
 *             data-scroll="on" (follow the reading by scrolling)  data-live="polite" (announce each sentence)
 *
 * A job still being made is played from its first segment (GET /audio/{id}/stream.m3u8 lists them), two <audio>
 * elements taking turns so the next segment is loaded before the current one ends; once the job is done the
 * player moves to the whole file at the next segment boundary. Timings (GET /audio/{id}/timings) are UTF-16
 * offsets into the narrated text: the element's textContent, or the same with whitespace runs collapsed and
 * trimmed (the player tells which from the audio's `chars`). Highlights use the CSS Custom Highlight API (the
 * page's DOM is never changed); ::highlight(voz-frase) and ::highlight(voz-palabra) can be restyled by the page.
 *
 * Styles are constructed style sheets (adoptedStyleSheets), so a host page's CSP needs nothing for them; <style>
 * elements only where the browser lacks them.
 *
 * No dependencies, no globals: everything lives in this closure. The player renders inside an open Shadow DOM on a
 * <voz-player> element, so the host page's CSS cannot reach it (and its CSS cannot leak out); themable through
 * CSS custom properties (--voz-color, --voz-fondo, --voz-texto, --voz-borde, --voz-foco), which do cross the
 * shadow boundary by design. The API origin (and any path prefix) is taken from this script's own src.
 * Type-checked with lambdas/narration/widget/tsconfig.widget.json (checkJs, lib DOM).
 */
(function () {
  'use strict';
  var doc = document;
  var PLAY = '<path d="M8 5v14l11-7z"/>';
  var PAUSE = '<path d="M6 5h4v14H6zm8 0h4v14h-4z"/>';
  var SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2];
  /** Longest we keep asking about a pending narration (the worker's limit is 15 min). */
  var MAX_WAIT_MS = 20 * 60 * 1000;

  var CSS =
    ':host{all:initial;display:block;max-width:40em;margin:1em 0}' +
    ':host([hidden]){display:none}' +
    // Fonts and colours are set here, not on :host: a page rule like `* {color: x !important}` reaches the host
    // element (and so everything that inherits from it), never the elements inside the shadow root.
    '.w{font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--voz-texto,#1f2328);--c:var(--voz-color,#0b57d0);display:flex;gap:12px;align-items:center;padding:12px;border:1px solid var(--voz-borde,#c4c9d0);border-radius:12px;background:var(--voz-fondo,#fff)}' +
    '.p{flex:none;width:44px;height:44px;border:0;border-radius:50%;background:var(--c);color:#fff;cursor:pointer;display:grid;place-items:center;padding:0}' +
    '.p svg{width:20px;height:20px;fill:currentColor}' +
    '.m{flex:1;min-width:0}' +
    '.t{font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}' +
    '[type=range]{display:block;width:100%;margin:6px 0;accent-color:var(--c)}' +
    '.r{display:flex;justify-content:space-between;align-items:center;gap:8px;font-size:13px}' +
    '.k{font-variant-numeric:tabular-nums}' +
    'select{font:inherit;color:inherit;background:transparent;border:1px solid var(--voz-borde,#c4c9d0);border-radius:6px;padding:2px 4px}' +
    ':focus-visible{outline:3px solid var(--voz-foco,#e8710a);outline-offset:2px}' +
    '.b{height:6px;margin:8px 0;border-radius:3px;background:#e3e6ea;overflow:hidden}' +
    '.b i{display:block;height:100%;width:0;background:var(--c);transition:width .4s}' +
    '.b.x i{width:30%;animation:v 1.2s ease-in-out infinite}' +
    '@keyframes v{from{transform:translateX(-100%)}to{transform:translateX(340%)}}' +
    'p{margin:4px 0 0;font-size:13px}p:empty{display:none}' +
    '.f{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin-top:6px;font-size:13px}' +
    '.f button{font:inherit;color:inherit;background:transparent;border:1px solid var(--voz-borde,#c4c9d0);border-radius:6px;padding:2px 8px;cursor:pointer}' +
    '.s{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}' +
    '.e{color:#b3261e}.e small{display:block;color:#57606a}' +
    '[hidden]{display:none!important}' +
    '@media (prefers-reduced-motion:reduce){*{animation:none!important;transition:none!important}}';

  /** The highlight colours, in a cascade layer: any rule of the page for the same highlights wins. */
  var MARKS =
    '@layer voz{::highlight(voz-frase){background-color:#fff0a6}::highlight(voz-palabra){background-color:#ffd54f;text-decoration:underline}}';

  /** @type {Record<string, CSSStyleSheet>} one constructed sheet per style, shared by every player */
  var sheets = {};
  /**
   * Applies `css` to a shadow root or the document: a constructed style sheet (adoptedStyleSheets) where the browser
   * has them, so a host page's strict CSP needs nothing for it; else a <style> element, first in it.
   */
  function addStyle(/** @type {any} */ where, /** @type {string} */ css) {
    var list = where.adoptedStyleSheets;
    if (list && !sheets[css])
      try {
        var sheet = new CSSStyleSheet();
        sheet.replaceSync(css);
        sheets[css] = sheet;
      } catch (e) {
        list = null; // no constructable style sheets here
      }
    if (list) {
      if (Array.prototype.indexOf.call(list, sheets[css]) < 0)
        where.adoptedStyleSheets = Array.prototype.slice.call(list).concat(sheets[css]);
      return;
    }
    var parent = where.head || where;
    for (var i = 0; i < parent.children.length; i++) if (parent.children[i].textContent === css) return;
    var style = doc.createElement('style');
    style.textContent = css;
    parent.insertBefore(style, parent.firstChild);
  }

  /** Seconds as m:ss (h:mm:ss from an hour on). */
  function clock(/** @type {number} */ s) {
    s = isFinite(s) && s > 0 ? Math.floor(s) : 0;
    var h = Math.floor(s / 3600);
    var m = Math.floor(s / 60) % 60;
    var ss = ('0' + (s % 60)).slice(-2);
    return h ? h + ':' + ('0' + m).slice(-2) + ':' + ss : m + ':' + ss;
  }

  /** A spoken form for aria-valuetext: "1 min 5 s". */
  function spoken(/** @type {number} */ s) {
    s = isFinite(s) && s > 0 ? Math.floor(s) : 0;
    var m = Math.floor(s / 60);
    return (m ? m + ' min ' : '') + (s % 60) + ' s';
  }

  /**
   * @typedef {{status: number, detail?: unknown, retry?: string | null}} ApiFailure
   * @typedef {{status: number, body: any, retry: string | null}} ApiAnswer
   */

  /** The Spanish message for a failure; the API's own detail (the specific reason, asked in Spanish) goes under it. */
  function explain(/** @type {ApiFailure} */ f, /** @type {boolean} */ narrating) {
    var s = f.status;
    var wait = Number(f.retry) || 0;
    if (!s)
      return 'No se pudo conectar con el servicio de narración. Revisa tu conexión y vuelve a intentarlo.';
    if (s === 429)
      return (
        'Se alcanzó el límite de narraciones gratuitas. ' +
        (wait
          ? 'Podrás intentarlo de nuevo en ' + (wait < 60 ? wait + ' s.' : Math.ceil(wait / 60) + ' min.')
          : 'Vuelve a intentarlo más tarde.')
      );
    if (s === 404)
      return 'Este audio no existe o ya caducó. Pide al autor de la página que lo genere de nuevo.';
    if (s === 409) return 'La narración no pudo completarse. Pulsa reproducir para intentarlo de nuevo.';
    if (s === 422)
      return narrating
        ? 'No se pudo narrar esta página.'
        : 'El identificador de audio no es válido. Revisa el atributo data-audio-id.';
    if (s === 401 || s === 402 || s === 403) return 'El servicio de narración rechazó la petición.';
    if (s >= 500) return 'El servicio de narración no está disponible ahora mismo. Inténtalo más tarde.';
    return 'No se pudo obtener el audio (error ' + s + ').';
  }

  /** The API's `detail`: a string, or for 422 a list of {msg}. */
  function detailText(/** @type {unknown} */ d) {
    if (typeof d === 'string') return d;
    if (Array.isArray(d))
      return d
        .map(function (x) {
          return x && x.msg;
        })
        .filter(Boolean)
        .join(' ');
    return '';
  }

  function wait(/** @type {number} */ ms) {
    return new Promise(function (r) {
      setTimeout(r, ms);
    });
  }

  function mount(/** @type {HTMLScriptElement} */ tag) {
    var cfg = tag.dataset;
    var feed = cfg.feed;
    var narrating = !cfg.audioId && (cfg.narrate === 'page' || !!feed);
    var article = ''; // the feed's key of this page: what beacons name
    /** @type {Record<string, boolean>} beacons already sent in this page view */
    var sent = {};
    var audioId = cfg.audioId || '';
    var api = function (/** @type {string} */ path) {
      return new URL(path, tag.src).href;
    };

    var host = doc.createElement('voz-player');
    var root = host.attachShadow({ mode: 'open' });
    // part="…" names are the styling hooks a host page may use: voz-player::part(boton) { … }.
    root.innerHTML =
      '<div class="w" part="reproductor" role="region" aria-label="Reproductor de audio">' +
      '<button class="p" part="boton" type="button" aria-label="Reproducir"><svg viewBox="0 0 24 24" aria-hidden="true">' +
      PLAY +
      '</svg></button><div class="m"><div class="t" part="titulo"></div>' +
      '<input part="posicion" type="range" min="0" max="0" step="1" value="0" aria-label="Posición de reproducción" disabled>' +
      '<div class="b" part="progreso" role="progressbar" aria-label="Preparando el audio" aria-valuemin="0" aria-valuemax="100" hidden><i></i></div>' +
      '<div class="r"><span class="k" part="tiempo">0:00 / 0:00</span><select part="velocidad" aria-label="Velocidad de reproducción">' +
      SPEEDS.map(function (v) {
        return (
          '<option value="' +
          v +
          '"' +
          (v === 1 ? ' selected' : '') +
          '>' +
          String(v).replace('.', ',') +
          '×</option>'
        );
      }).join('') +
      '</select></div><div class="f" part="texto" hidden><button type="button" data-d="-1">‹ Frase anterior</button>' +
      '<button type="button" data-d="1">Frase siguiente ›</button><label><input type="checkbox"> Seguir el texto</label></div>' +
      '<p part="estado" role="status"></p><p class="e" part="error" role="alert"></p><p class="s" aria-live="off"></p></div>' +
      '<audio preload="none"></audio><audio preload="none"></audio></div>';
    addStyle(root, CSS);

    var $ = function (/** @type {string} */ sel) {
      return /** @type {any} */ (root.querySelector(sel));
    };
    var region = /** @type {HTMLElement} */ ($('.w'));
    var button = /** @type {HTMLButtonElement} */ ($('.p'));
    var icon = /** @type {SVGElement} */ ($('svg'));
    var title = /** @type {HTMLElement} */ ($('.t'));
    var seek = /** @type {HTMLInputElement} */ ($('input'));
    var bar = /** @type {HTMLElement} */ ($('.b'));
    var clockEl = /** @type {HTMLElement} */ ($('.k'));
    var speed = /** @type {HTMLSelectElement} */ ($('select'));
    var statusEl = /** @type {HTMLElement} */ ($('[role=status]'));
    var errorEl = /** @type {HTMLElement} */ ($('.e'));
    var players = /** @type {HTMLAudioElement[]} */ (
      Array.prototype.slice.call(root.querySelectorAll('audio'))
    );
    var audio = players[0]; // the element playing now; the other one loads the next segment
    var spare = players[1];
    var textBar = /** @type {HTMLElement} */ ($('.f'));
    var followBox = /** @type {HTMLInputElement} */ ($('.f input'));
    var live = /** @type {HTMLElement} */ ($('.s'));
    followBox.checked = cfg.scroll === 'on';
    if (cfg.live === 'polite' || cfg.live === 'assertive') live.setAttribute('aria-live', cfg.live);

    title.textContent = cfg.title || (narrating ? 'Escuchar esta página' : 'Escuchar el audio');
    if (!narrating && !audioId) {
      showError('Falta el atributo data-audio-id o data-narrate="page" en la etiqueta del reproductor.', '');
      button.disabled = true;
    }

    var ready = false; // a source is loaded: the whole file, or the segments of a job being made
    var busy = false; // a request or a wait is under way
    var playable = false; // the current src has loaded its metadata: a later error is the URL, not the file
    var lastRefresh = 0; // when we last swapped an expired presigned URL for a fresh one
    /** @type {number} API duration, for when the media reports none */
    var knownDuration = 0;
    /** @type {{uri: string, start: number, dur: number}[]} the playlist's segments so far */
    var segs = [];
    var segMode = false; // playing the segments of a job still being made
    var segIdx = -1; // the segment in `audio`
    var spareIdx = -1; // the segment loaded into `spare`
    var stalled = false; // the current segment ended before the next one landed
    var base = 0; // where `audio` starts on the whole audio's clock
    /** @type {any} GET /audio JSON of the finished audio: {url, duration_s, …} */
    var whole = null;
    /** @type {any} GET /audio/{id}/timings */
    var timings = null;
    var timingsAt = 0;
    var chars = 0; // characters narrated (tells how the page's text was sent)
    /** @type {(v?: any) => void} */
    var onStart = function () {};

    function showStatus(/** @type {string} */ text) {
      statusEl.textContent = text;
    }

    function showError(/** @type {string} */ text, /** @type {string} */ detail) {
      errorEl.textContent = text;
      if (detail) {
        var small = doc.createElement('small');
        small.textContent = 'Detalle: ' + detail;
        errorEl.appendChild(small);
      }
    }

    /** The article's title, from any answer that carries it (convert, pending or done), unless the page set one. */
    function showTitle(/** @type {any} */ body) {
      if (body && body.title && !cfg.title) title.textContent = body.title;
    }

    /** A listen beacon (feed mode): each event once per page view; sendBeacon form bodies need no preflight. */
    function beacon(/** @type {string} */ ev) {
      if (!article || sent[ev] || !navigator.sendBeacon) return;
      sent[ev] = navigator.sendBeacon(
        api('listens'),
        new URLSearchParams({ feed_id: feed || '', article: article, event: ev }),
      );
    }

    function showProgress(/** @type {any} */ body) {
      var f = Number(body && body.progress) || 0;
      bar.hidden = false;
      seek.hidden = true;
      bar.classList.toggle('x', f <= 0);
      /** @type {HTMLElement} */ (bar.firstChild).style.width = Math.round(f * 100) + '%';
      if (f > 0) bar.setAttribute('aria-valuenow', String(Math.round(f * 100)));
      else bar.removeAttribute('aria-valuenow');
      showStatus(
        body && body.status === 'queued'
          ? 'En cola: la narración empezará enseguida…'
          : 'Preparando el audio… ' + Math.round(f * 100) + ' %',
      );
    }

    function setIcon(/** @type {boolean} */ playing) {
      icon.innerHTML = playing ? PAUSE : PLAY;
      button.setAttribute('aria-label', playing ? 'Pausar' : 'Reproducir');
    }

    /** The position on the whole audio's clock. */
    function pos() {
      return base + audio.currentTime;
    }

    function duration() {
      var last = segs[segs.length - 1];
      if (segMode) return Math.max(last ? last.start + last.dur : 0, knownDuration);
      return isFinite(audio.duration) && audio.duration > 0 ? audio.duration : knownDuration;
    }

    function render() {
      var d = duration();
      var t = pos();
      clockEl.textContent = clock(t) + ' / ' + clock(d);
      seek.max = String(Math.floor(d));
      seek.value = String(Math.floor(t));
      seek.setAttribute('aria-valuetext', spoken(t) + ' de ' + spoken(d));
      if (d && !audio.paused)
        [25, 50, 75, 100].forEach(function (q) {
          if (t + 0.3 >= (d * q) / 100) beacon('' + q);
        });
      sync();
    }

    /** fetch against the API; resolves on 2xx, rejects with an ApiFailure otherwise (status 0: no answer). */
    /**
     * @param {string} path
     * @param {RequestInit} init
     * @param {boolean} [text] resolve with the body as text (else an ApiAnswer)
     * @returns {Promise<any>}
     */
    function call(path, init, text) {
      // Accept-Language is a CORS-safelisted header: asking for Spanish adds no preflight.
      var headers = Object.assign({ 'accept-language': 'es-MX, es;q=0.9' }, init.headers);
      return fetch(api(path), Object.assign({}, init, { headers: headers })).then(
        /** @returns {any} */
        function (res) {
          if (text && res.ok) return res.text();
          return res
            .json()
            .catch(function () {
              return {};
            })
            .then(function (body) {
              var answer = { status: res.status, body: body, retry: res.headers.get('retry-after') };
              if (res.ok) return answer;
              throw { status: res.status, detail: body && body.detail, retry: answer.retry };
            });
        },
        function () {
          throw { status: 0 };
        },
      );
    }

    function audioPath(/** @type {string} */ id) {
      return 'audio/' + encodeURIComponent(id);
    }

    /** GET /audio/{id} as JSON until it is done: 202 {status, progress} while pending, 200 {url, ...} after. */
    function resolveAudio(/** @type {string} */ id) {
      var deadline = Date.now() + MAX_WAIT_MS;
      var poll = function () {
        return call(audioPath(id), { headers: { accept: 'application/json' } }).then(
          /** @returns {any} */
          function (/** @type {ApiAnswer} */ a) {
            chars = Number(a.body.chars) || chars;
            showTitle(a.body);
            if (a.status === 200 && a.body.url) return a.body;
            if (Date.now() > deadline || !host.isConnected) throw { status: 504 };
            showProgress(a.body);
            // Honour Retry-After (2 s processing, 5 s queued), within bounds.
            return wait(Math.min(5, Math.max(1, Number(a.retry) || 2)) * 1000).then(poll);
          },
        );
      };
      return poll();
    }

    /** Plays `id`: the whole file when it is done, else its segments as they land; resolves once playing. */
    function begin(/** @type {string} */ id) {
      return new Promise(function (resolve, reject) {
        onStart = resolve;
        followJob(id, Date.now() + MAX_WAIT_MS).then(resolve, function (/** @type {ApiFailure} */ f) {
          if (!ready) return reject(f);
          showError(explain(f, narrating), detailText(f.detail));
        });
      });
    }

    /** Reads the job's playlist every 2 s: plays from its first segment, follows it, then moves to the whole file. */
    function followJob(/** @type {string} */ id, /** @type {number} */ deadline) {
      /** @returns {Promise<any>} */
      var playlist = audioPath(id) + '/stream.m3u8';
      /** @returns {any} false once the job is done (handled), else true: read the playlist again */
      var onList = function (/** @type {string} */ m3u8) {
        var at = 0;
        var lines = m3u8.split('\n');
        segs = [];
        lines.forEach(function (line, i) {
          var m = /^#EXTINF:([\d.]+)/.exec(line);
          if (m) {
            segs.push({ uri: new URL(lines[i + 1] || '', api(playlist)).href, start: at, dur: +m[1] });
            at += +m[1];
          }
        });
        var done = m3u8.indexOf('#EXT-X-ENDLIST') >= 0;
        if (!ready && segs.length && !done) startSegments();
        if (segMode) {
          if (stalled && segIdx + 1 < segs.length) playSeg(segIdx + 1, 0, true);
          preload();
          render();
        }
        if (Date.now() - timingsAt > 8000) loadTimings(id);
        if (!done) return true;
        return resolveAudio(id).then(
          /** @returns {any} */
          function (meta) {
            if (!ready) return playWhole(meta, 0, true);
            whole = meta;
            knownDuration = Number(meta.duration_s) || knownDuration;
            loadTimings(id);
            if (stalled || audio.paused) toWhole(stalled);
            return false;
          },
        );
      };
      /** @returns {Promise<any>} */
      var step = function () {
        // Until a segment plays, GET /audio tells the progress (and a job that finished in one go).
        var pending = ready ? null : call(audioPath(id), { headers: { accept: 'application/json' } });
        return Promise.resolve(pending).then(function (/** @type {ApiAnswer | null} */ a) {
          if (a) {
            chars = Number(a.body.chars) || chars;
            showTitle(a.body);
            if (a.status === 200 && a.body.url) return playWhole(a.body, 0, true);
            showProgress(a.body);
          }
          return call(playlist, {}, true)
            .then(onList, function (/** @type {ApiFailure} */ f) {
              // No playlist (yet) for an OGG/WAV made in one go: GET /audio says when it is done.
              if (ready || f.status !== 404) throw f;
              return true;
            })
            .then(function (/** @type {boolean} */ more) {
              if (!more || !host.isConnected) return;
              if (Date.now() > deadline) throw { status: 504 };
              return wait(a ? Math.min(5, Math.max(1, Number(a.retry) || 2)) * 1000 : 2000).then(step);
            });
        });
      };
      return step();
    }

    function startSegments() {
      bar.hidden = true;
      seek.hidden = false;
      segMode = ready = true;
      seek.disabled = false;
      showStatus('Escuchando mientras se prepara el resto del audio.');
      playSeg(0, 0, true);
      onStart();
    }

    /** Plays segment i from `offset` s, from the spare element when it has it loaded. */
    function playSeg(/** @type {number} */ i, /** @type {number} */ offset, /** @type {boolean} */ go) {
      var old = audio;
      stalled = false;
      if (spareIdx === i) {
        audio = spare;
        spare = old;
        spareIdx = -1;
        old.pause();
      } else audio.src = segs[i].uri;
      segIdx = i;
      base = segs[i].start;
      audio.playbackRate = Number(speed.value);
      audio.currentTime = offset;
      if (go) play();
      preload();
    }

    /** Loads the next segment into the spare element, so it starts without a gap. */
    function preload() {
      var n = segIdx + 1;
      if (!segMode || n >= segs.length || spareIdx === n) return;
      spareIdx = n;
      spare.src = segs[n].uri;
      spare.preload = 'auto';
      spare.load();
    }

    /** From the segments to the whole file, at the same second. */
    function toWhole(/** @type {boolean} */ go) {
      var at = pos();
      segMode = stalled = false;
      spareIdx = -1;
      spare.removeAttribute('src');
      spare.load();
      showStatus('');
      playWhole(whole, at, go);
    }

    function playWhole(/** @type {any} */ meta, /** @type {number} */ at, /** @type {boolean} */ go) {
      bar.hidden = true;
      seek.hidden = false;
      showStatus('');
      load(meta);
      if (at) audio.currentTime = at;
      loadTimings(audioId);
      return go ? play() : undefined;
    }

    function play() {
      return audio.play().catch(function (/** @type {Error} */ e) {
        // A browser that forgot the click by the time the audio is ready: one more press plays it.
        if (e && e.name === 'NotAllowedError') showStatus('El audio está listo: pulsa reproducir.');
      });
    }

    function load(/** @type {any} */ meta) {
      knownDuration = Number(meta.duration_s) || 0;
      showTitle(meta);
      playable = false;
      whole = meta;
      base = 0;
      audio.src = meta.url;
      audio.playbackRate = Number(speed.value);
      ready = true;
      seek.disabled = false;
      render();
    }

    function start() {
      if (busy) return;
      if (ready) {
        if (audio.paused && !stalled) play();
        else audio.pause();
        return;
      }
      busy = true;
      region.setAttribute('aria-busy', 'true');
      showError('', '');
      showStatus(narrating && !audioId ? 'Pidiendo la narración de esta página…' : 'Cargando el audio…');
      // iOS Safari lets a media element play later only if it was touched inside the click itself.
      audio.removeAttribute('src');
      audio.load();
      var form = new URLSearchParams({ url: location.href.split('#')[0] || '' });
      if (cfg.voice) form.set('voice', cfg.voice);
      if (cfg.fmt) form.set('fmt', cfg.fmt);
      // A form body is a CORS "simple request": no preflight round trip.
      var canonical = /** @type {HTMLLinkElement | null} */ (doc.querySelector('link[rel=canonical]'));
      var look =
        'feeds/' +
        encodeURIComponent(feed || '') +
        '/article?url=' +
        encodeURIComponent(canonical ? canonical.href : form.get('url') || '');
      var got = audioId
        ? Promise.resolve(audioId)
        : feed
          ? call(look, {})
              .then(function (/** @type {ApiAnswer} */ a) {
                article = a.body.article;
                // A first_play feed offers the page (no audio yet): this press narrates it.
                return a.body.audio_id ? a : call(look, { method: 'POST' });
              })
              .then(function (/** @type {ApiAnswer} */ a) {
                showTitle(a.body);
                return (audioId = a.body.audio_id);
              })
          : call('convert/url', { method: 'POST', body: form }).then(function (/** @type {ApiAnswer} */ a) {
              showTitle(a.body);
              if (a.status === 202) showProgress(a.body);
              return (audioId = a.body.audio_id);
            });
      got
        .then(begin)
        .catch(function (/** @type {ApiFailure} */ f) {
          // A failed or vanished narration of this page: the next press asks for a new one.
          if (narrating && (f.status === 409 || f.status === 404)) audioId = '';
          bar.hidden = true;
          seek.hidden = false;
          showStatus('');
          showError(
            f.status === 504
              ? 'La narración está tardando demasiado. Vuelve a intentarlo en unos minutos.'
              : explain(f, narrating),
            detailText(f.detail),
          );
        })
        .then(function () {
          busy = false;
          region.removeAttribute('aria-busy');
        });
    }

    /** Jumps to second t of the whole audio (within what has landed). */
    function seekTo(/** @type {number} */ t) {
      if (!ready) return;
      beacon('seek');
      t = Math.max(0, Math.min(duration() || 0, t));
      if (segMode) {
        for (var i = segs.length - 1; i > 0 && segs[i].start > t; i--);
        if (i === segIdx) audio.currentTime = t - base;
        else playSeg(i, t - segs[i].start, !audio.paused || stalled);
      } else audio.currentTime = t;
      render();
    }

    // ---- Following the text: highlights in the page's own element, click to jump there. `data-follow` may be set,
    // changed or removed at any time, on the script tag or on <voz-player> (observed below: setFollow).
    /** @type {Element | null} */
    var follow = null;
    var win = /** @type {any} */ (window);
    var marks = win.Highlight && win.CSS && win.CSS.highlights;
    /** @type {{nodes: Text[], starts: number[], map: number[] | null, letters: boolean} | null} */
    var index = null;
    var curSentence = -1;
    var curWord = -1;

    function loadTimings(/** @type {string} */ id) {
      if (!follow || (timings && timings.status === 'done')) return;
      timingsAt = Date.now();
      call(audioPath(id) + '/timings' + (textIndex().letters ? '?offsets=letters' : ''), {}).then(
        function (/** @type {ApiAnswer} */ a) {
          timings = a.body;
          textBar.hidden = !(timings.sentences && timings.sentences.length);
          curSentence = curWord = -1;
          sync();
        },
        function () {
          // No timings (yet): play without highlighting.
        },
      );
    }

    /** The element's text nodes and where each starts; `map` when whitespace was collapsed before narrating. */
    function textIndex() {
      if (index) return index;
      var walker = doc.createTreeWalker(/** @type {Node} */ (follow), 4); // NodeFilter.SHOW_TEXT
      var nodes = [];
      var starts = [];
      var raw = '';
      for (var n; (n = /** @type {Text} */ (walker.nextNode()));) {
        nodes.push(n);
        starts.push(raw.length);
        raw += n.data;
      }
      /** @type {number[] | null} */
      var map = null;
      var exact = Array.from(raw).length === chars;
      // Neither the text nor the text collapsed (a URL narration: blank lines, headings ending in a full stop): only
      // the letters and digits are common, and the timings are asked with offsets counting those.
      var letters = !exact && Array.from(raw.replace(/\s+/g, ' ').trim()).length !== chars;
      if (!exact) {
        // Narrated as `text.replace(/\s+/g, ' ').trim()`: offset i of that text is raw[map[i]] (or of its letters).
        map = [];
        var space = true;
        for (var i = 0; i < raw.length; i++) {
          var isSpace = /\s/.test(raw[i]);
          if (letters ? /[\p{L}\p{N}]/u.test(raw[i]) : !(isSpace && space)) map.push(i);
          space = isSpace;
        }
      }
      return (index = { nodes: nodes, starts: starts, map: map, letters: letters });
    }

    /** Offset o of the narrated text as a DOM point; `end`: o is an exclusive end. */
    function point(/** @type {number} */ o, /** @type {boolean} */ end) {
      var x = textIndex();
      var m = x.map;
      var r = m ? (end ? (m[o - 1] || 0) + 1 : m[Math.min(o, m.length - 1)] || 0) : o;
      var lo = 0;
      var hi = x.starts.length - 1;
      while (lo < hi) {
        var mid = (lo + hi + 1) >> 1;
        if (x.starts[mid] <= r) lo = mid;
        else hi = mid - 1;
      }
      var node = x.nodes[lo];
      return { node: node, offset: Math.max(0, Math.min(r - x.starts[lo], node ? node.data.length : 0)) };
    }

    function rangeOf(/** @type {any} */ item) {
      var a = point(item.start, false);
      var b = point(item.end, true);
      var r = doc.createRange();
      if (!a.node || !b.node) return null;
      r.setStart(a.node, a.offset);
      r.setEnd(b.node, b.offset);
      return r;
    }

    /** The item of `list` (ordered by `key`) whose `key` is the last ≤ v; -1 if none. */
    function find(/** @type {any[]} */ list, /** @type {string} */ key, /** @type {number} */ v) {
      var lo = 0;
      var hi = list.length - 1;
      var found = -1;
      while (lo <= hi) {
        var mid = (lo + hi) >> 1;
        if ((key ? list[mid][key] : list[mid]) <= v) {
          found = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      return found;
    }

    function highlight(/** @type {string} */ name, /** @type {any} */ item) {
      var r = item && rangeOf(item);
      if (!marks) return r;
      if (r) marks.set(name, new win.Highlight(r));
      else marks.delete(name);
      return r;
    }

    /** Highlights the sentence (and word) at the playhead; scrolls to it if the reader asked to. */
    function sync() {
      if (!timings || !follow || !ready) return;
      var t = pos();
      var list = timings.sentences || [];
      var s = find(list, 'start_s', t);
      if (s !== curSentence) {
        curSentence = s;
        var r = highlight('voz-frase', list[s]);
        live.textContent = r ? r.toString() : '';
        var box = r && r.getBoundingClientRect();
        if (box && followBox.checked && (box.top < 0 || box.bottom > innerHeight))
          scrollBy({
            top: box.top - innerHeight / 3,
            behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
          });
      }
      var words = timings.words || [];
      var w = find(words, 'start_s', t);
      if (w >= 0 && t >= words[w].end_s) w = -1;
      if (w !== curWord) {
        curWord = w;
        highlight('voz-palabra', words[w]);
      }
    }

    function tick() {
      sync();
      if (!audio.paused) requestAnimationFrame(tick);
    }

    function jumpToSentence(/** @type {number} */ s) {
      var list = (timings && timings.sentences) || [];
      if (!list[s]) return;
      seekTo(list[s].start_s);
      if (audio.paused && !stalled) play();
    }

    /** Follows the element `selector` finds (none: stops following); what was highlighted elsewhere is cleared. */
    function setFollow(/** @type {string | null | undefined} */ selector) {
      /** @type {Element | null} */
      var el = null;
      try {
        el = selector ? doc.querySelector(selector) : null;
      } catch (e) {
        // An invalid selector: no highlighting.
      }
      if (el === follow) return;
      if (follow) {
        follow.removeEventListener('click', onTextClick);
        highlight('voz-frase', null);
        highlight('voz-palabra', null);
        live.textContent = '';
      }
      follow = el;
      index = null;
      curSentence = curWord = -1;
      textBar.hidden = !(follow && timings && timings.sentences && timings.sentences.length);
      if (!follow) return;
      addStyle(doc, MARKS);
      follow.addEventListener('click', onTextClick);
      // Asked again: the new element may need other offsets (the browser's cache answers the same ones).
      timings = null;
      if (ready && audioId) loadTimings(audioId);
    }

    function onTextClick(/** @type {Event} */ ev) {
      var e = /** @type {MouseEvent} */ (ev);
      var sel = doc.getSelection();
      var el = /** @type {Element} */ (e.target);
      if (
        !timings ||
        !ready ||
        (sel && !sel.isCollapsed) ||
        (el.closest && el.closest('a,button,input,select,textarea,label,voz-player'))
      )
        return;
      var d = /** @type {any} */ (doc);
      var p = d.caretPositionFromPoint && d.caretPositionFromPoint(e.clientX, e.clientY);
      var r = !p && d.caretRangeFromPoint && d.caretRangeFromPoint(e.clientX, e.clientY);
      var node = p ? p.offsetNode : r && r.startContainer;
      var x = textIndex();
      var k = x.nodes.indexOf(node);
      if (k < 0) return;
      var at = x.starts[k] + (p ? p.offset : r.startOffset);
      if (x.map) at = find(x.map, '', at);
      jumpToSentence(find(timings.sentences || [], 'start', at));
    }

    setFollow(cfg.follow);
    // The last change wins, on the script tag or on the player's own element.
    var watch = new MutationObserver(function (/** @type {MutationRecord[]} */ changes) {
      setFollow(/** @type {Element} */ (changes[changes.length - 1].target).getAttribute('data-follow'));
    });
    watch.observe(tag, { attributeFilter: ['data-follow'] });
    watch.observe(host, { attributeFilter: ['data-follow'] });

    function seekBy(/** @type {number} */ delta) {
      seekTo(pos() + delta);
    }

    button.addEventListener('click', start);
    seek.addEventListener('input', function () {
      seekTo(Number(seek.value));
    });
    speed.addEventListener('change', function () {
      players.forEach(function (el) {
        el.playbackRate = Number(speed.value);
      });
    });
    textBar.addEventListener('click', function (e) {
      var d = Number(/** @type {Element} */ (e.target).getAttribute('data-d'));
      if (!d || !timings) return;
      var s = find(timings.sentences || [], 'start_s', pos() + 0.01);
      jumpToSentence(Math.max(0, s + d));
    });
    // Keyboard: the button and the select work natively; Space/Enter on the slider toggles, arrows seek 5 s.
    region.addEventListener('keydown', function (/** @type {KeyboardEvent} */ e) {
      var target = e.composedPath()[0];
      if (target === speed || target === followBox) return;
      var k = e.key;
      if (target === seek && (k === ' ' || k === 'Enter')) start();
      else if (k === 'ArrowLeft' || (target === seek && k === 'ArrowDown')) seekBy(-5);
      else if (k === 'ArrowRight' || (target === seek && k === 'ArrowUp')) seekBy(5);
      else return;
      e.preventDefault();
    });
    /** Media events count only from the element playing now (the spare one loads quietly). */
    function on(/** @type {string} */ type, /** @type {() => void} */ fn) {
      players.forEach(function (el) {
        el.addEventListener(type, function () {
          if (el === audio) fn();
        });
      });
    }
    on('play', function () {
      beacon('play');
      setIcon(true);
      if (!segMode) showStatus('');
      requestAnimationFrame(tick);
    });
    on('pause', function () {
      setIcon(false);
    });
    on('loadedmetadata', function () {
      playable = true;
    });
    ['timeupdate', 'durationchange', 'loadedmetadata', 'seeked'].forEach(function (ev) {
      on(ev, render);
    });
    on('ended', function () {
      if (!segMode) return beacon('100');
      var more = segIdx + 1 < segs.length;
      if (whole) toWhole(more);
      else if (more) playSeg(segIdx + 1, 0, true);
      else {
        stalled = true;
        setIcon(true);
        showStatus('Cargando la siguiente parte…');
      }
    });
    spare.addEventListener('error', function () {
      spareIdx = -1; // loaded again when its turn comes
    });
    players[0].addEventListener('error', onError);
    players[1].addEventListener('error', onError);
    function onError(/** @type {Event} */ e) {
      if (e.target !== audio || !ready || !audio.getAttribute('src')) return;
      // The presigned URL lives a few minutes: when a long audio needs more bytes after that (or after a long
      // pause), ask for a fresh URL and carry on from the same point. At most once every 30 s: no loops.
      if (!segMode && playable && Date.now() - lastRefresh > 30000) {
        lastRefresh = Date.now();
        var at = audio.currentTime;
        var resume = !audio.paused;
        resolveAudio(audioId).then(
          function (meta) {
            playWhole(meta, at, resume);
          },
          function (/** @type {ApiFailure} */ f) {
            showError(explain(f, narrating), detailText(f.detail));
          },
        );
        return;
      }
      ready = segMode = false;
      setIcon(false);
      showError('No se pudo reproducir el audio. Pulsa reproducir para intentarlo de nuevo.', '');
    }

    var target = null;
    try {
      target = cfg.target ? doc.querySelector(cfg.target) : null;
    } catch (e) {
      // An invalid selector: fall back to placing the player after the script tag.
    }
    if (target) target.appendChild(host);
    else if (tag.parentNode && tag.parentNode !== doc.head)
      tag.parentNode.insertBefore(host, tag.nextSibling);
    else if (doc.body) doc.body.insertBefore(host, doc.body.firstChild);
    else
      doc.addEventListener('DOMContentLoaded', function () {
        doc.body.insertBefore(host, doc.body.firstChild);
      });
  }

  var current = /** @type {HTMLScriptElement | null} */ (doc.currentScript);
  // currentScript is null when a loader evaluates us indirectly: fall back to every tag not yet set up.
  var tags = current
    ? [current]
    : Array.prototype.slice.call(
        doc.querySelectorAll(
          'script[src*="embed.js"][data-audio-id],script[src*="embed.js"][data-narrate],script[src*="embed.js"][data-feed]',
        ),
      );
  tags.forEach(function (/** @type {HTMLScriptElement} */ tag) {
    if (tag.hasAttribute('data-voz')) return;
    tag.setAttribute('data-voz', '');
    mount(tag);
  });
})();
