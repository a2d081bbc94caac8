import { ConvertTextReq } from '../../lambdas/narration/handlers/convert-text.route';
import { resolveVoice } from '../../lambdas/narration/requests';
import { InvalidInput } from '../../lambdas/shared/errors';
import { parseBody } from '../../lambdas/shared/http/request';
import { validate } from '../../lambdas/shared/validation';

function items(input: unknown) {
  try {
    validate(ConvertTextReq, input);
  } catch (err) {
    if (err instanceof InvalidInput) return err.items;
    throw err;
  }
  throw new Error('expected a validation error');
}

describe('ConvertTextReq (422 items in the contract shape)', () => {
  test('missing text', () => {
    expect(items({})).toEqual([{ loc: ['body', 'text'], msg: 'Field required', type: 'missing' }]);
  });
  test('empty text', () => {
    expect(items({ text: '' })).toEqual([
      { loc: ['body', 'text'], msg: 'String should have at least 1 character', type: 'string_too_short' },
    ]);
  });
  test('100,001 characters', () => {
    expect(items({ text: 'a'.repeat(100_001) })).toEqual([
      { loc: ['body', 'text'], msg: 'String should have at most 100000 characters', type: 'string_too_long' },
    ]);
  });
  test('100,000 characters is accepted; length counts characters, not UTF-16 units', () => {
    expect(validate(ConvertTextReq, { text: 'a'.repeat(100_000) }).text).toHaveLength(100_000);
    // 100,000 emoji are 200,000 UTF-16 units but 100,000 characters.
    expect(() => validate(ConvertTextReq, { text: '😀'.repeat(100_000) })).not.toThrow();
    expect(items({ text: '😀'.repeat(100_001) })[0]!.type).toBe('string_too_long');
  });
  test('text of the wrong type', () => {
    expect(items({ text: 42 })).toEqual([
      { loc: ['body', 'text'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
  });
  test('body that is not an object', () => {
    expect(items([1, 2])).toEqual([
      {
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        type: 'model_attributes_type',
      },
    ]);
  });
  test('bad fmt lists the allowed values; several problems are reported at once', () => {
    expect(items({ text: '', fmt: 'flac' })).toEqual([
      { loc: ['body', 'text'], msg: 'String should have at least 1 character', type: 'string_too_short' },
      { loc: ['body', 'fmt'], msg: "Input should be 'mp3', 'wav' or 'ogg'", type: 'literal_error' },
    ]);
  });
  test('defaults and normalisation: fmt mp3, case-insensitive fmt, empty voice means default', () => {
    expect(validate(ConvertTextReq, { text: 'hola' })).toEqual({
      text: 'hola',
      fmt: 'mp3',
      text_type: 'text',
    });
    expect(validate(ConvertTextReq, { text: 'hola', fmt: 'WAV', voice: '' })).toEqual({
      text: 'hola',
      fmt: 'wav',
      text_type: 'text',
    });
    expect(validate(ConvertTextReq, { text: 'hola', voice: null, fmt: null })).toEqual({
      text: 'hola',
      fmt: 'mp3',
      text_type: 'text',
    });
  });
});

describe('voices', () => {
  test('default voice is es-MX-Mia; lookup is case-insensitive', () => {
    expect(resolveVoice(undefined).id).toBe('es-MX-Mia');
    expect(resolveVoice('es-es-lucia').id).toBe('es-ES-Lucia');
  });
  test('unknown voice is a 422 naming the valid ids', () => {
    try {
      resolveVoice('en-US-Joanna');
      throw new Error('expected error');
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidInput);
      const item = (err as InvalidInput).items[0]!;
      expect(item.loc).toEqual(['body', 'voice']);
      expect(item.type).toBe('value_error');
      expect(item.msg).toContain('es-ES-Sergio');
    }
  });
});

describe('parseBody', () => {
  const b = (s: string) => Buffer.from(s, 'utf8');
  test('JSON, +json and missing content type', () => {
    expect(parseBody(b('{"text":"hola"}'), 'application/json; charset=utf-8')).toEqual({ text: 'hola' });
    expect(parseBody(b('{"a":1}'), 'application/merge-patch+json')).toEqual({ a: 1 });
    expect(parseBody(b('{"a":1}'), undefined)).toEqual({ a: 1 });
  });
  test('form-urlencoded, UTF-8 and first value wins', () => {
    expect(
      parseBody(b('text=Hola+se%C3%B1or&voice=es-ES-Lucia&text=x'), 'application/x-www-form-urlencoded'),
    ).toEqual({
      text: 'Hola señor',
      voice: 'es-ES-Lucia',
    });
  });
  test.each(['{"text": ', '{"text": hola}', '{"text": "a",}', "{'text': 'a'}"])(
    'malformed JSON %s',
    (raw) => {
      try {
        parseBody(b(raw), 'application/json');
        throw new Error('expected error');
      } catch (err) {
        const [item, ...rest] = (err as InvalidInput).items;
        expect(rest).toEqual([]);
        expect(item).toMatchObject({ msg: 'JSON decode error', type: 'json_invalid' });
        // FastAPI adds the character position when the parser reports one.
        expect(item!.loc[0]).toBe('body');
        if (item!.loc.length === 2) expect(item!.loc[1]).toEqual(expect.any(Number));
      }
    },
  );
  test('empty JSON body is a missing body', () => {
    expect(() => parseBody(b(''), 'application/json')).toThrow(InvalidInput);
  });
  test('unsupported media type is 415', () => {
    expect(() => parseBody(b('hola'), 'text/plain')).toThrow(expect.objectContaining({ statusCode: 415 }));
  });
});
