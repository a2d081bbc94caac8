// JavaScript that runs INSIDE the template realm (an isolated-vm context for caller templates, a node:vm context for
// the built-in ones), after the nunjucks browser bundle, decimal.js and realm-format.js (filter arguments, exact
// decimals, es-MX formatting) have been evaluated there. It is a classic
// script, not a module, and never imported: it must not close over anything of the host. realm-sources.ts reads this
// file's text at run time; the realm receives only that source, the template source, the data as JSON text and the
// built-in partials as strings, and hands back one JSON string. Lint checks it as a script whose only globals are
// the language's (eslint.config.mjs), so a reference to a host global (require, process...) fails `npm run lint`.
//
// It installs Jinja2 semantics where nunjucks differs (docs/documents-templates.md lists what is and is not covered):
// keyword arguments for filters (`sum(attribute='precio')`), printf-style `format`, exact decimal `sum`/`round`,
// es-MX `currency`/`number`/`percent`/`date`, `map`, `selectattr` with tests, `unique`, `min`/`max`, `tojson`,
// `groupby` returning (grouper, list) pairs, tests `none`/`boolean`/`integer`/`float`/`sequence`, globals `dict`
// and `namespace`, and a loader that serves only the built-in partials.
//
// Entry points: `__njPrecompile(name, source)` → the compiled JavaScript of a template (trusted realm only);
// `__njCompile(name, source)` → JSON {ok, code} or a syntax error (sandbox compiler context);
// `__njRender(inputJson)` → JSON `{"ok":true,"html":...}` or
// `{"ok":false,"kind":"syntax"|"render"|"include"|"output","message":...,"line":n|null,"column":n|null}`.

(function (g) {
  'use strict';
  var nunjucks = g.nunjucks;
  var lib = nunjucks.lib;
  var runtime = nunjucks.runtime;
  var plainLookup = runtime.memberLookup;
  nunjucks.installJinjaCompat();
  // Jinja2 (and nunjucks' compat layer) resolve obj.items / obj.keys / obj.values to the dict METHOD even when the
  // data has a member of that name, so {{ factura.items }} would not be the list. We prefer the data's own member
  // (a deliberate, friendlier difference); obj.items() still works when there is no such member.
  var compatLookup = runtime.memberLookup;
  runtime.memberLookup = function memberLookup(obj, val) {
    if (arguments.length !== 4 && obj !== null && typeof obj === 'object' && !Array.isArray(obj) &&
        Object.prototype.hasOwnProperty.call(obj, val)) {
      return plainLookup.apply(this, arguments);
    }
    return compatLookup.apply(this, arguments);
  };
  // Jinja2 truthiness: empty lists and dicts are false ({% if items %}), JavaScript's are true. Conditions of
  // if/elif, inline if, not, and, or are compiled through runtime.jinjaTruthy.
  var Compiler = nunjucks.compiler.Compiler;
  var nodes = nunjucks.nodes;
  function truthy(v) {
    if (v === null || v === undefined) return false;
    if (Array.isArray(v)) return v.length > 0;
    if (v instanceof runtime.SafeString) return String(v).length > 0;
    if (typeof v === 'object') {
      var proto = Object.getPrototypeOf(v);
      if (proto === Object.prototype || proto === null) return Object.keys(v).length > 0;
    }
    return !!v;
  }
  runtime.jinjaTruthy = truthy;
  runtime.jinjaOr = function (l, r) { return truthy(l) ? l : r(); };
  runtime.jinjaAnd = function (l, r) { return truthy(l) ? r() : l; };
  var Truthy = nodes.Not.extend('JinjaTruthy');
  Compiler.prototype.compileJinjaTruthy = function (node, frame) {
    this._emit('runtime.jinjaTruthy('); this.compile(node.target, frame); this._emit(')');
  };
  ['compileIf', 'compileInlineIf'].forEach(function (name) {
    var orig = Compiler.prototype[name];
    Compiler.prototype[name] = function (node) {
      var c = node.cond;
      node.cond = new Truthy(c.lineno, c.colno, c);
      try { return orig.apply(this, arguments); } finally { node.cond = c; }
    };
  });
  Compiler.prototype.compileNot = function (node, frame) {
    this._emit('!runtime.jinjaTruthy('); this.compile(node.target, frame); this._emit(')');
  };
  Compiler.prototype.compileOr = function (node, frame) {
    this._emit('runtime.jinjaOr('); this.compile(node.left, frame);
    this._emit(', function () { return '); this.compile(node.right, frame); this._emit('; })');
  };
  Compiler.prototype.compileAnd = function (node, frame) {
    this._emit('runtime.jinjaAnd('); this.compile(node.left, frame);
    this._emit(', function () { return '); this.compile(node.right, frame); this._emit('; })');
  };
  // Filter arguments, decimals and es-MX formatting come from realm-format.js, evaluated just before this script.
  var Fmt = g.__realmFormat;
  delete g.__realmFormat;
  var D = Fmt.D, isKw = Fmt.isKw, params = Fmt.params, toDecimal = Fmt.toDecimal;
  var number = Fmt.number, currency = Fmt.currency, percent = Fmt.percent, date = Fmt.date, pyFormat = Fmt.pyFormat;
  var MAX_OUTPUT = 20 * 1024 * 1024;

  // ---- helpers -------------------------------------------------------------------------------------------
  function attrGetter(attribute) {
    if (attribute === undefined || attribute === null) return function (v) { return v; };
    var parts = String(attribute).split('.');
    return function (v) {
      var cur = v;
      for (var i = 0; i < parts.length; i++) {
        if (cur === undefined || cur === null) return undefined;
        var p = parts[i];
        cur = /^\d+$/.test(p) && Array.isArray(cur) ? cur[Number(p)] : cur[p];
      }
      return cur;
    };
  }
  function toArray(v) {
    if (v === undefined || v === null) return [];
    if (Array.isArray(v)) return v;
    if (typeof v === 'string') return v.split('');
    if (typeof v === 'object') return Object.keys(v);
    return [v];
  }
  function fromDecimal(d) { return Number(d.toString()); }
  function safe(s) { return runtime.markSafe(s); }

  // ---- tests (Jinja names) ------------------------------------------------------------------------------
  var TESTS = {
    none: function (v) { return v === null; },
    boolean: function (v) { return v === true || v === false; },
    true: function (v) { return v === true; },
    false: function (v) { return v === false; },
    integer: function (v) { return typeof v === 'number' && isFinite(v) && Math.floor(v) === v; },
    float: function (v) { return typeof v === 'number' && isFinite(v) && Math.floor(v) !== v; },
    sequence: function (v) { return Array.isArray(v) || typeof v === 'string'; },
    in: function (v, seq) { return Array.isArray(seq) || typeof seq === 'string' ? seq.indexOf(v) >= 0 :
      (seq !== null && typeof seq === 'object' ? Object.prototype.hasOwnProperty.call(seq, v) : false); },
    filter: function () { return false; },
    test: function () { return false; },
  };
  function runTest(env, name, value, extra) {
    if (name === undefined || name === null) return truthy(value);
    var t = Object.prototype.hasOwnProperty.call(TESTS, name) ? TESTS[name] : env.getTest(name);
    return !!t.apply(null, [value].concat(extra));
  }

  // ---- filters with Jinja signatures ----------------------------------------------------------------------
  function makeFilters(env) {
    var builtin = function (n) { return env.getFilter(n); };
    var origTruncate = builtin('truncate'), origJoin = builtin('join'), origIndent = builtin('indent'),
      origBatch = builtin('batch'), origReplace = builtin('replace'), origDictsort = builtin('dictsort'),
      origWordcount = builtin('wordcount'), origDefault = builtin('default');
    var F = {};
    F['default'] = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['default_value', 'boolean'], { default_value: '', boolean: false });
      if (p.boolean) return truthy(v) ? v : p.default_value;
      return origDefault(v, p.default_value);
    };
    F.d = F['default'];
    F.length = function (v) { return v === undefined || v === null ? 0 : (typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).length : v.length); };
    F.count = F.length;
    F.round = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['precision', 'method'], { precision: 0, method: 'common' });
      var mode = p.method === 'ceil' ? D.ROUND_CEIL : p.method === 'floor' ? D.ROUND_FLOOR : D.ROUND_HALF_UP;
      return fromDecimal(toDecimal(v).toDecimalPlaces(Number(p.precision) || 0, mode));
    };
    F.sum = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['attribute', 'start'], { attribute: null, start: 0 });
      var get = attrGetter(p.attribute);
      var total = toDecimal(p.start);
      toArray(v).forEach(function (x) { total = total.plus(toDecimal(get(x))); });
      return fromDecimal(total);
    };
    F.format = pyFormat;
    F.currency = currency;
    F.moneda = currency;
    F.number = number;
    F.numero = number;
    F.percent = percent;
    F.porcentaje = percent;
    F.date = date;
    F.fecha = date;
    F.strftime = date;
    F.map = function (v) {
      var args = Array.prototype.slice.call(arguments, 1);
      var kw = args.length && isKw(args[args.length - 1]) ? args.pop() : {};
      var arr = toArray(v);
      if (kw.attribute !== undefined) {
        var get = attrGetter(kw.attribute);
        return arr.map(function (x) { var r = get(x); return r === undefined && kw['default'] !== undefined ? kw['default'] : r; });
      }
      if (!args.length) throw new Error('map needs a filter name or attribute=');
      var name = args.shift();
      var f = Object.prototype.hasOwnProperty.call(F, name) ? F[name] : env.getFilter(name);
      return arr.map(function (x) { return f.apply(this, [x].concat(args)); }, this);
    };
    function selectAttr(keep) {
      return function (v) {
        var args = Array.prototype.slice.call(arguments, 1);
        if (args.length && isKw(args[args.length - 1])) args.pop();
        var get = attrGetter(args[0]);
        var testName = args[1];
        var extra = args.slice(2);
        return toArray(v).filter(function (x) { return runTest(env, testName, get(x), extra) === keep; });
      };
    }
    F.selectattr = selectAttr(true);
    F.rejectattr = selectAttr(false);
    F.select = function (v, testName) { var extra = Array.prototype.slice.call(arguments, 2);
      return toArray(v).filter(function (x) { return runTest(env, testName, x, extra); }); };
    F.reject = function (v, testName) { var extra = Array.prototype.slice.call(arguments, 2);
      return toArray(v).filter(function (x) { return !runTest(env, testName, x, extra); }); };
    F.unique = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['case_sensitive', 'attribute'], { case_sensitive: false, attribute: null });
      var get = attrGetter(p.attribute), seen = [], out = [];
      toArray(v).forEach(function (x) {
        var k = get(x); if (!p.case_sensitive && typeof k === 'string') k = k.toLowerCase();
        if (seen.indexOf(k) < 0) { seen.push(k); out.push(x); }
      });
      return out;
    };
    function extreme(sign) {
      return function (v) {
        var p = params(Array.prototype.slice.call(arguments, 1), ['case_sensitive', 'attribute'], { case_sensitive: false, attribute: null });
        var get = attrGetter(p.attribute), best;
        toArray(v).forEach(function (x) {
          var k = get(x); if (!p.case_sensitive && typeof k === 'string') k = k.toLowerCase();
          if (best === undefined || (sign * (k < best.k ? -1 : k > best.k ? 1 : 0)) > 0) best = { k: k, x: x };
        });
        return best === undefined ? undefined : best.x;
      };
    }
    F.min = extreme(-1);
    F.max = extreme(1);
    F.tojson = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['indent'], { indent: null });
      var s = JSON.stringify(v === undefined ? null : v, null, p.indent || undefined);
      return safe(s.replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/'/g, '\\u0027'));
    };
    F.items = function (v) { return v && typeof v === 'object' ? Object.keys(v).map(function (k) { return [k, v[k]]; }) : []; };
    F.groupby = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['attribute', 'default'], { attribute: null, 'default': undefined });
      var get = attrGetter(p.attribute), keys = [], groups = {};
      toArray(v).forEach(function (x) {
        var k = get(x); if (k === undefined) k = p['default'];
        var id = typeof k + ':' + String(k);
        if (!Object.prototype.hasOwnProperty.call(groups, id)) { groups[id] = { k: k, list: [] }; keys.push(id); }
        groups[id].list.push(x);
      });
      keys.sort(function (a, b) { var x = groups[a].k, y = groups[b].k; return x < y ? -1 : x > y ? 1 : 0; });
      return keys.map(function (id) { var pair = [groups[id].k, groups[id].list]; pair.grouper = pair[0]; pair.list = pair[1]; return pair; });
    };
    F.truncate = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['length', 'killwords', 'end', 'leeway'], { length: 255, killwords: false, end: '...', leeway: 5 });
      var s = v === undefined || v === null ? '' : String(v);
      if (s.length <= p.length + p.leeway) return v;
      return origTruncate(v, p.length, p.killwords, p.end);
    };
    F.join = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['d', 'attribute'], { d: '', attribute: null });
      if (p.attribute) { var get = attrGetter(p.attribute); v = toArray(v).map(get); }
      return origJoin(v, p.d);
    };
    F.indent = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['width', 'first'], { width: 4, first: false });
      return origIndent(v, p.width, p.first);
    };
    F.batch = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['linecount', 'fill_with'], { linecount: 1, fill_with: undefined });
      return origBatch(v, p.linecount, p.fill_with);
    };
    F.replace = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['old', 'new', 'count'], { old: '', 'new': '', count: undefined });
      return origReplace(v, p.old, p['new'], p.count);
    };
    F.dictsort = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['case_sensitive', 'by', 'reverse'], { case_sensitive: false, by: 'key', reverse: false });
      var r = origDictsort(v, p.case_sensitive, p.by);
      return p.reverse ? r.reverse() : r;
    };
    F.wordcount = function (v) { return origWordcount(v === undefined || v === null ? '' : v); };
    F.attr = function (v, name) { return v === undefined || v === null ? undefined : v[name]; };
    F.filesizeformat = function (v) {
      var p = params(Array.prototype.slice.call(arguments, 1), ['binary'], { binary: false });
      var base = p.binary ? 1024 : 1000, n = Number(v), units = p.binary ? ['KiB', 'MiB', 'GiB', 'TiB'] : ['kB', 'MB', 'GB', 'TB'];
      if (n < base) return n + (n === 1 ? ' Byte' : ' Bytes');
      var i = -1; do { n /= base; i++; } while (n >= base && i < units.length - 1);
      return n.toFixed(1) + ' ' + units[i];
    };
    F.xmlattr = function (v) {
      var parts = [];
      Object.keys(v || {}).forEach(function (k) {
        var x = v[k];
        if (x === undefined || x === null || isKw(v) && k === '__keywords') return;
        if (!/^[A-Za-z_:][-A-Za-z0-9_:.]*$/.test(k)) throw new Error('invalid attribute name: ' + k);
        parts.push(k + '="' + lib.escape(String(x)) + '"');
      });
      return safe(parts.length ? ' ' + parts.join(' ') : '');
    };
    return F;
  }

  // ---- loader: built-in partials only ---------------------------------------------------------------------
  var INCLUDE_REFUSED = 'include refused: ';
  function PartialLoader(partials, precompiled) {
    this.partials = partials;
    this.precompiled = precompiled || {};
  }
  PartialLoader.prototype.getSource = function (name) {
    if (!Object.prototype.hasOwnProperty.call(this.partials, name)) {
      throw new Error(INCLUDE_REFUSED + '"' + name + '" is not a built-in partial; available: ' +
        Object.keys(this.partials).sort().join(', '));
    }
    // Built-in partials arrive precompiled (by the host, from our own sources): evaluating code is much cheaper
    // than compiling in a fresh context where nothing is JIT-warm.
    if (Object.prototype.hasOwnProperty.call(this.precompiled, name)) {
      return { src: { type: 'code', obj: new Function(this.precompiled[name])() }, path: name, noCache: false };
    }
    return { src: this.partials[name], path: name, noCache: false };
  };

  function makeEnv(partials, precompiled) {
    var env = new nunjucks.Environment(new PartialLoader(partials, precompiled), { autoescape: true, throwOnUndefined: false });
    var F = makeFilters(env);
    Object.keys(F).forEach(function (k) { env.addFilter(k, F[k]); });
    Object.keys(TESTS).forEach(function (k) { env.addTest(k, TESTS[k]); });
    env.addGlobal('dict', function () {
      var args = Array.prototype.slice.call(arguments), kw = args.length && isKw(args[args.length - 1]) ? args.pop() : {};
      var out = {};
      args.forEach(function (a) { if (a && typeof a === 'object') Object.keys(a).forEach(function (k) { out[k] = a[k]; }); });
      Object.keys(kw).forEach(function (k) { if (k !== '__keywords') out[k] = kw[k]; });
      return out;
    });
    // Jinja's namespace(): nunjucks cannot assign attributes ({% set ns.x = 1 %} is a syntax error), so it is
    // only a read-only bag here; docs/documents-templates.md shows the loop-total alternatives.
    env.addGlobal('namespace', function () {
      var args = Array.prototype.slice.call(arguments), kw = args.length && isKw(args[args.length - 1]) ? args.pop() : {};
      var out = {};
      Object.keys(kw).forEach(function (k) { if (k !== '__keywords') out[k] = kw[k]; });
      return out;
    });
    return env;
  }

  function describe(err, kind) {
    var msg = String(err && err.message || err);
    var line = err && typeof err.lineno === 'number' && err.lineno > 0 ? err.lineno : null;
    var column = err && typeof err.colno === 'number' && err.colno > 0 ? err.colno : null;
    var m = /\[Line (\d+), Column (\d+)\]/.exec(msg);
    if (m) { line = line || Number(m[1]); column = column || Number(m[2]); }
    var include = msg.indexOf(INCLUDE_REFUSED) >= 0;
    // Keep the engine's explanation, drop its framing ("Template render error: (unknown path) [Line..]").
    var clean = msg.replace(/^\s*(Template render error: )?(\([^)]*\))?\s*(\[Line \d+, Column \d+\])?\s*/, '')
      .replace(/\n\s*/g, ' ').replace(/^Error: /, '').trim();
    if (include) clean = clean.slice(clean.indexOf(INCLUDE_REFUSED) + INCLUDE_REFUSED.length);
    return { ok: false, kind: include ? 'include' : kind, message: clean.slice(0, 500), line: line, column: column };
  }

  // JavaScript of a compiled template (used by the host to precompile the built-in partials once).
  g.__njPrecompile = function (name, source) {
    var env = makeEnv({});
    return nunjucks.compiler.compile(source, env.asyncFilters, env.extensionsList, name, env.opts);
  };

  // Compile-only entry for the sandbox's long-lived compiler context: it runs the nunjucks compiler on a caller's
  // source and never executes template code, so its JIT stays warm and nothing a template does can reach it.
  var compileEnv = null;
  g.__njCompile = function (name, source) {
    compileEnv = compileEnv || makeEnv({});
    try {
      var code = nunjucks.compiler.compile(source, compileEnv.asyncFilters, compileEnv.extensionsList, name, compileEnv.opts);
      return JSON.stringify({ ok: true, code: code });
    } catch (e) {
      return JSON.stringify(describe(e, 'syntax'));
    }
  };

  var cached = {};
  var envCache = null;
  g.__njRender = function (inputJson) {
    var input = JSON.parse(inputJson);
    var env = input.cacheKey && envCache ? envCache : makeEnv(input.partials || {}, input.precompiled);
    if (input.cacheKey) envCache = env;
    var tmpl;
    try {
      tmpl = input.cacheKey && cached[input.cacheKey] ? cached[input.cacheKey] :
        new nunjucks.Template(input.code ? { type: 'code', obj: new Function(input.code)() } : input.source, env,
          input.name || 'template', true);
      if (input.cacheKey) cached[input.cacheKey] = tmpl;
    } catch (e) {
      return JSON.stringify(describe(e, 'syntax'));
    }
    var html;
    var data = input.data && typeof input.data === 'object' ? input.data : {};
    // A top-level "__proto__" member would become the prototype of nunjucks' context object (it copies members by
    // assignment): drop it, it cannot be a template variable anyway.
    if (Object.prototype.hasOwnProperty.call(data, '__proto__')) delete data['__proto__'];
    try {
      html = tmpl.render(data);
    } catch (e) {
      return JSON.stringify(describe(e, 'render'));
    }
    if (html.length > MAX_OUTPUT) {
      return JSON.stringify({ ok: false, kind: 'output', message: 'the rendered document is larger than ' +
        (MAX_OUTPUT / 1024 / 1024) + ' MB', line: null, column: null });
    }
    return JSON.stringify({ ok: true, html: html });
  };
})(globalThis);
