// JavaScript that runs INSIDE the template realm, just before realm-bootstrap.js (realm-sources.ts lists the order),
// after decimal.js. Like the bootstrap it is a classic script that must not close over anything of the host (lint
// checks it the same way). It holds what the Jinja2 filters compute with and print: filter-argument parsing
// (keyword arguments), exact decimals, es-MX `number`/`currency`/`percent`/`date` and printf-style `format`. It
// hands them to the bootstrap as `__realmFormat`, which the bootstrap takes and removes from the global object.

(function (g) {
  'use strict';
  var Decimal = g.Decimal;
  var D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
  var MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre',
    'octubre', 'noviembre', 'diciembre'];
  var DAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];

  // ---- filter arguments and decimals ----------------------------------------------------------------------
  function isKw(o) { return o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, '__keywords'); }
  // Splits filter arguments into positional values and keyword values, mapping keywords onto parameter names.
  function params(args, names, defaults) {
    var list = Array.prototype.slice.call(args);
    var kw = list.length && isKw(list[list.length - 1]) ? list.pop() : {};
    var out = {};
    for (var i = 0; i < names.length; i++) {
      var n = names[i];
      if (i < list.length && list[i] !== undefined) out[n] = list[i];
      else if (Object.prototype.hasOwnProperty.call(kw, n)) out[n] = kw[n];
      else out[n] = defaults[n];
    }
    out._rest = list.slice(names.length);
    out._kw = kw;
    return out;
  }
  function toDecimal(v) {
    if (v instanceof D) return v;
    if (v === undefined || v === null || v === '') return new D(0);
    if (typeof v === 'boolean') return new D(v ? 1 : 0);
    if (typeof v === 'number') {
      if (!isFinite(v)) throw new Error('not a finite number: ' + v);
      return new D(String(v)); // shortest round-trip text: 0.1 stays 0.1, not 0.1000000000000000055...
    }
    var s = String(v).trim().replace(/,/g, '');
    try { return new D(s); } catch { throw new Error('"' + String(v) + '" is not a number'); }
  }

  // ---- number / money / date formatting (es-MX) ------------------------------------------------------------
  // Intl formatters are costly to build; keep them for the life of the realm.
  var formatters = {};
  function fmt(locale, options) {
    var key = locale + JSON.stringify(options);
    return formatters[key] || (formatters[key] = new Intl.NumberFormat(locale, options));
  }
  function number(value, _a, _b) {
    var p = params(arguments.length > 1 ? Array.prototype.slice.call(arguments, 1) : [], ['decimals', 'locale'],
      { decimals: 2, locale: 'es-MX' });
    var d = toDecimal(value).toDecimalPlaces(p.decimals, D.ROUND_HALF_UP);
    return fmt(p.locale, { minimumFractionDigits: p.decimals, maximumFractionDigits: p.decimals })
      .format(d.toFixed(p.decimals));
  }
  // resolvedOptions() builds a new object on every call: a currency's decimals are read once.
  var digitsByCode = Object.create(null);
  function currencyDigits(code) {
    var d = digitsByCode[code];
    if (d === undefined)
      d = digitsByCode[code] = fmt('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
    return d;
  }
  function currency(value) {
    var p = params(Array.prototype.slice.call(arguments, 1), ['code', 'locale', 'decimals'],
      { code: 'MXN', locale: 'es-MX', decimals: null });
    var code = String(p.code || 'MXN').toUpperCase();
    var digits = p.decimals === null || p.decimals === undefined ? currencyDigits(code) : Number(p.decimals);
    var d = toDecimal(value).toDecimalPlaces(digits, D.ROUND_HALF_UP);
    return fmt(p.locale, { style: 'currency', currency: code,
      minimumFractionDigits: digits, maximumFractionDigits: digits }).format(d.toFixed(digits));
  }
  function percent(value) {
    var p = params(Array.prototype.slice.call(arguments, 1), ['decimals', 'locale'], { decimals: 0, locale: 'es-MX' });
    var d = toDecimal(value).times(100).toDecimalPlaces(p.decimals, D.ROUND_HALF_UP);
    return fmt(p.locale, { minimumFractionDigits: p.decimals, maximumFractionDigits: p.decimals })
      .format(d.toFixed(p.decimals)) + ' %';
  }
  function parseDate(v) {
    if (v instanceof Date) return v;
    if (v === 'now' || v === undefined || v === null || v === '') return new Date();
    if (typeof v === 'number') return new Date(v);
    var s = String(v);
    // A bare date is a calendar day: read it as UTC so no time zone moves it to the day before.
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (m) return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
    var d = new Date(s);
    if (isNaN(d.getTime())) throw new Error('"' + s + '" is not a date (use YYYY-MM-DD or ISO 8601)');
    return d;
  }
  function pad(n, w) { var s = String(n); while (s.length < w) s = '0' + s; return s; }
  function strftime(d, fmt) {
    return String(fmt).replace(/%([dmYyBbAaHMSjep%])/g, function (_, c) {
      switch (c) {
        case 'd': return pad(d.getUTCDate(), 2);
        case 'e': return String(d.getUTCDate());
        case 'm': return pad(d.getUTCMonth() + 1, 2);
        case 'Y': return String(d.getUTCFullYear());
        case 'y': return pad(d.getUTCFullYear() % 100, 2);
        case 'B': return MONTHS[d.getUTCMonth()];
        case 'b': return MONTHS[d.getUTCMonth()].slice(0, 3);
        case 'A': return DAYS[d.getUTCDay()];
        case 'a': return DAYS[d.getUTCDay()].slice(0, 3);
        case 'H': return pad(d.getUTCHours(), 2);
        case 'M': return pad(d.getUTCMinutes(), 2);
        case 'S': return pad(d.getUTCSeconds(), 2);
        case 'p': return d.getUTCHours() < 12 ? 'a. m.' : 'p. m.';
        case 'j': return pad(Math.floor((d - Date.UTC(d.getUTCFullYear(), 0, 1)) / 864e5) + 1, 3);
        default: return '%';
      }
    });
  }
  function date(value) {
    var p = params(Array.prototype.slice.call(arguments, 1), ['format'], { format: '%d/%m/%Y' });
    var d = parseDate(value);
    if (p.format === 'long' || p.format === 'largo') return strftime(d, '%e de %B de %Y');
    if (p.format === 'full' || p.format === 'completo') return strftime(d, '%A %e de %B de %Y');
    if (p.format === 'iso') return d.toISOString().slice(0, 10);
    return strftime(d, p.format);
  }

  // ---- printf-style format (Jinja's "%s"|format) ------------------------------------------------------------
  function pyFormat(fmt) {
    var args = Array.prototype.slice.call(arguments, 1);
    var kw = args.length && isKw(args[args.length - 1]) ? args.pop() : null;
    var i = 0;
    var out = String(fmt).replace(/%(\([A-Za-z_][A-Za-z0-9_]*\))?([-+ 0#]*)(\d+)?(?:\.(\d+))?([sdifFeExXor%])/g,
      function (all, name, flags, width, prec, conv) {
        if (conv === '%') return '%';
        var v = name ? (kw || (args[0] && typeof args[0] === 'object' ? args[0] : {}))[name.slice(1, -1)] : args[i++];
        var s;
        switch (conv) {
          case 'd': case 'i': s = String(Math.trunc(Number(v))); break;
          case 'f': case 'F': s = toDecimal(v).toFixed(prec === undefined ? 6 : Number(prec)); break;
          case 'e': case 'E': s = Number(v).toExponential(prec === undefined ? 6 : Number(prec)); if (conv === 'E') s = s.toUpperCase(); break;
          case 'x': s = Math.trunc(Number(v)).toString(16); break;
          case 'X': s = Math.trunc(Number(v)).toString(16).toUpperCase(); break;
          case 'o': s = Math.trunc(Number(v)).toString(8); break;
          case 'r': s = JSON.stringify(v); break;
          default: s = v === undefined || v === null ? (v === null ? 'None' : '') : String(v);
            if (prec !== undefined) s = s.slice(0, Number(prec));
        }
        if (flags.indexOf('+') >= 0 && /^[dif]/i.test(conv) && s[0] !== '-') s = '+' + s;
        if (width) {
          var w = Number(width);
          var padChar = flags.indexOf('0') >= 0 && flags.indexOf('-') < 0 && conv !== 's' ? '0' : ' ';
          while (s.length < w) s = flags.indexOf('-') >= 0 ? s + ' ' : (padChar === '0' && /^[-+]/.test(s) ? s[0] + '0' + s.slice(1) : padChar + s);
        }
        return s;
      });
    return out;
  }

  g.__realmFormat = {
    D: D,
    isKw: isKw,
    params: params,
    toDecimal: toDecimal,
    number: number,
    currency: currency,
    percent: percent,
    date: date,
    pyFormat: pyFormat,
  };
})(globalThis);
