/*
 * Voz embeddable player, served minified at GET /embed.js (see docs/embed.md). Source of truth: this file;
 * lambdas/narration/widget/build.ts minifies it to ES2019 into embed.generated.ts, which the Lambda serves.
 *
 *   <script src="https://API/embed.js" data-audio-id="ID" async></script>      plays an existing audio
 *   <script src="https://API/embed.js" data-narrate="page" async></script>    narrates this page on click
 *   optional: data-voice="es-ES-Lucia"  data-fmt="mp3|ogg|wav"  data-title="…"  data-target="#css-selector"
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
    'input{display:block;width:100%;margin:6px 0;accent-color:var(--c)}' +
    '.r{display:flex;justify-content:space-between;align-items:center;gap:8px;font-size:13px}' +
    '.k{font-variant-numeric:tabular-nums}' +
    'select{font:inherit;color:inherit;background:transparent;border:1px solid var(--voz-borde,#c4c9d0);border-radius:6px;padding:2px 4px}' +
    ':focus-visible{outline:3px solid var(--voz-foco,#e8710a);outline-offset:2px}' +
    '.b{height:6px;margin:8px 0;border-radius:3px;background:#e3e6ea;overflow:hidden}' +
    '.b i{display:block;height:100%;width:0;background:var(--c);transition:width .4s}' +
    '.b.x i{width:30%;animation:v 1.2s ease-in-out infinite}' +
    '@keyframes v{from{transform:translateX(-100%)}to{transform:translateX(340%)}}' +
    'p{margin:4px 0 0;font-size:13px}p:empty{display:none}' +
    '.e{color:#b3261e}.e small{display:block;color:#57606a}' +
    '[hidden]{display:none!important}' +
    '@media (prefers-reduced-motion:reduce){*{animation:none!important;transition:none!important}}';

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

  /** The Spanish message for a failure; the API's own detail (English) is shown under it. */
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
        ? 'No se pudo narrar esta página: el servicio no encontró un artículo que leer.'
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
    var narrating = !cfg.audioId && cfg.narrate === 'page';
    var audioId = cfg.audioId || '';
    var api = function (/** @type {string} */ path) {
      return new URL(path, tag.src).href;
    };

    var host = doc.createElement('voz-player');
    var root = host.attachShadow({ mode: 'open' });
    // part="…" names are the styling hooks a host page may use: voz-player::part(boton) { … }.
    root.innerHTML =
      '<style>' +
      CSS +
      '</style><div class="w" part="reproductor" role="region" aria-label="Reproductor de audio">' +
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
      '</select></div><p part="estado" role="status"></p><p class="e" part="error" role="alert"></p></div>' +
      '<audio preload="none"></audio></div>';

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
    var audio = /** @type {HTMLAudioElement} */ ($('audio'));

    title.textContent = cfg.title || (narrating ? 'Escuchar esta página' : 'Escuchar el audio');
    if (!narrating && !audioId) {
      showError('Falta el atributo data-audio-id o data-narrate="page" en la etiqueta del reproductor.', '');
      button.disabled = true;
    }

    var ready = false; // audio.src holds a playable URL
    var busy = false; // a request or a wait is under way
    var playable = false; // the current src has loaded its metadata: a later error is the URL, not the file
    var lastRefresh = 0; // when we last swapped an expired presigned URL for a fresh one
    /** @type {number} API duration, for when the media reports none */
    var knownDuration = 0;

    function showStatus(/** @type {string} */ text) {
      statusEl.textContent = text;
    }

    function showError(/** @type {string} */ text, /** @type {string} */ detail) {
      errorEl.textContent = text;
      if (detail) {
        var small = doc.createElement('small');
        small.lang = 'en';
        small.textContent = 'Detalle: ' + detail;
        errorEl.appendChild(small);
      }
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

    function duration() {
      return isFinite(audio.duration) && audio.duration > 0 ? audio.duration : knownDuration;
    }

    function render() {
      var d = duration();
      var t = audio.currentTime;
      clockEl.textContent = clock(t) + ' / ' + clock(d);
      seek.max = String(Math.floor(d));
      seek.value = String(Math.floor(t));
      seek.setAttribute('aria-valuetext', spoken(t) + ' de ' + spoken(d));
    }

    /** fetch against the API; resolves on 2xx, rejects with an ApiFailure otherwise (status 0: no answer). */
    function call(/** @type {string} */ path, /** @type {RequestInit} */ init) {
      return fetch(api(path), init).then(
        function (res) {
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

    /** GET /audio/{id} as JSON until it is done: 202 {status, progress} while pending, 200 {url, ...} after. */
    function resolveAudio(/** @type {string} */ id) {
      var deadline = Date.now() + MAX_WAIT_MS;
      var poll = function () {
        return call('audio/' + encodeURIComponent(id), { headers: { accept: 'application/json' } }).then(
          /** @returns {any} */
          function (/** @type {ApiAnswer} */ a) {
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

    function play() {
      return audio.play().catch(function (/** @type {Error} */ e) {
        // A browser that forgot the click by the time the audio is ready: one more press plays it.
        if (e && e.name === 'NotAllowedError') showStatus('El audio está listo: pulsa reproducir.');
      });
    }

    function load(/** @type {any} */ meta) {
      knownDuration = Number(meta.duration_s) || 0;
      if (meta.title && !cfg.title) title.textContent = meta.title;
      playable = false;
      audio.src = meta.url;
      audio.playbackRate = Number(speed.value);
      ready = true;
      seek.disabled = false;
      render();
    }

    function start() {
      if (busy) return;
      if (ready) {
        if (audio.paused) play();
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
      var got = audioId
        ? Promise.resolve(audioId)
        : call('convert/url', { method: 'POST', body: form }).then(function (/** @type {ApiAnswer} */ a) {
            if (a.status === 202) showProgress(a.body);
            return (audioId = a.body.audio_id);
          });
      got
        .then(resolveAudio)
        .then(function (meta) {
          bar.hidden = true;
          seek.hidden = false;
          showStatus('');
          load(meta);
          return play();
        })
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

    function seekBy(/** @type {number} */ delta) {
      if (!ready) return;
      audio.currentTime = Math.max(0, Math.min(duration() || 0, audio.currentTime + delta));
      render();
    }

    button.addEventListener('click', start);
    seek.addEventListener('input', function () {
      audio.currentTime = Number(seek.value);
      render();
    });
    speed.addEventListener('change', function () {
      audio.playbackRate = Number(speed.value);
    });
    // Keyboard: the button and the select work natively; Space/Enter on the slider toggles, arrows seek 5 s.
    region.addEventListener('keydown', function (/** @type {KeyboardEvent} */ e) {
      var target = e.composedPath()[0];
      if (target === speed) return;
      var k = e.key;
      if (target === seek && (k === ' ' || k === 'Enter')) start();
      else if (k === 'ArrowLeft' || (target === seek && k === 'ArrowDown')) seekBy(-5);
      else if (k === 'ArrowRight' || (target === seek && k === 'ArrowUp')) seekBy(5);
      else return;
      e.preventDefault();
    });
    audio.addEventListener('play', function () {
      setIcon(true);
      showStatus('');
    });
    audio.addEventListener('pause', function () {
      setIcon(false);
    });
    audio.addEventListener('loadedmetadata', function () {
      playable = true;
    });
    ['timeupdate', 'durationchange', 'loadedmetadata', 'seeked'].forEach(function (ev) {
      audio.addEventListener(ev, render);
    });
    audio.addEventListener('error', function () {
      if (!ready || !audio.getAttribute('src')) return;
      // The presigned URL lives a few minutes: when a long audio needs more bytes after that (or after a long
      // pause), ask for a fresh URL and carry on from the same point. At most once every 30 s: no loops.
      if (playable && Date.now() - lastRefresh > 30000) {
        lastRefresh = Date.now();
        var at = audio.currentTime;
        var resume = !audio.paused;
        resolveAudio(audioId).then(
          function (meta) {
            load(meta);
            audio.currentTime = at;
            if (resume) play();
          },
          function (/** @type {ApiFailure} */ f) {
            showError(explain(f, narrating), detailText(f.detail));
          },
        );
        return;
      }
      ready = false;
      setIcon(false);
      showError('No se pudo reproducir el audio. Pulsa reproducir para intentarlo de nuevo.', '');
    });

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
        doc.querySelectorAll('script[src*="embed.js"][data-audio-id],script[src*="embed.js"][data-narrate]'),
      );
  tags.forEach(function (/** @type {HTMLScriptElement} */ tag) {
    if (tag.hasAttribute('data-voz')) return;
    tag.setAttribute('data-voz', '');
    mount(tag);
  });
})();
