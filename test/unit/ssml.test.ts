// The SSML subset (core/ssml.ts) and its rendering per engine (core/speech.ts): a table of valid documents with
// what is spoken and what each engine receives, and of refused ones (malformed, unknown, misplaced, DTD/entity
// injection) with the position named.
import {
  engineInputs,
  markupFor,
  parsePieces,
  preparePieces,
  spokenText,
} from '../../lambdas/narration/core/speech';
import { SsmlError, parseSsml } from '../../lambdas/narration/core/ssml';
import { findVoice } from '../../lambdas/narration/core/voices';

const mia = findVoice('es-MX-Mia')!;
const lucia = findVoice('es-ES-Lucia')!;
const spoken = (xml: string, lang: 'es-MX' | 'es-ES' = 'es-MX') =>
  spokenText(preparePieces(parseSsml(xml, lang).pieces, lang));
const polly = (xml: string) => engineInputs(xml, mia, 'polly', 3000, { textType: 'ssml' });
const espeak = (xml: string) => engineInputs(xml, mia, 'espeak-cli', 3000, { textType: 'ssml' });

describe('valid SSML: what is spoken', () => {
  test.each([
    ['plain speak', '<speak>Hola mundo</speak>', 'Hola mundo'],
    [
      'xml declaration and namespace',
      '<?xml version="1.0"?><speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="es-MX">Hola</speak>',
      'Hola',
    ],
    ['reading rules apply inside', '<speak>Cuesta $5</speak>', 'Cuesta cinco pesos'],
    ['predefined entities', '<speak>Tom &amp; Jerry &lt;3</speak>', 'Tom y Jerry <tres'],
    ['numeric character reference', '<speak>caf&#233;</speak>', 'café'],
    ['CDATA is text', '<speak><![CDATA[a < b]]></speak>', 'a < b'],
    ['comments are ignored', '<speak>Hola<!-- nota -->, Ana</speak>', 'Hola, Ana'],
    ['paragraphs', '<speak><p>Uno.</p><p>Dos.</p></speak>', 'Uno.\n\nDos.'],
    ['sentences in a paragraph', '<speak><p><s>Uno</s><s>Dos</s></p></speak>', 'Uno Dos'],
    ['break by time', '<speak>Uno <break time="2s"/> dos</speak>', 'Uno dos'],
    ['break by strength', '<speak>Uno<break strength="x-strong"/>dos</speak>', 'Uno\n\ndos'],
    ['say-as characters', '<speak><say-as interpret-as="characters">ONU</say-as></speak>', 'o ene u'],
    ['say-as digits', '<speak><say-as interpret-as="digits">2024</say-as></speak>', 'dos cero dos cuatro'],
    [
      'say-as date dmy',
      '<speak><say-as interpret-as="date">03/04/2024</say-as></speak>',
      'tres de abril de dos mil veinticuatro',
    ],
    [
      'say-as date mdy',
      '<speak><say-as interpret-as="date" format="mdy">04/03/2024</say-as></speak>',
      'tres de abril de dos mil veinticuatro',
    ],
    [
      'say-as date ymd',
      '<speak><say-as interpret-as="date" format="ymd">2024-04-03</say-as></speak>',
      'tres de abril de dos mil veinticuatro',
    ],
    [
      'say-as telephone',
      '<speak><say-as interpret-as="telephone">55 1234 5678</say-as></speak>',
      'cincuenta y cinco, doce treinta y cuatro, cincuenta y seis setenta y ocho',
    ],
    [
      'sub alias',
      '<speak><sub alias="Organización Mundial de la Salud">OMS</sub></speak>',
      'Organización Mundial de la Salud',
    ],
    [
      'emphasis keeps the words',
      '<speak>Es <emphasis level="strong">muy</emphasis> claro</speak>',
      'Es muy claro',
    ],
    [
      'lang: no Spanish rules inside',
      '<speak>Lee <lang xml:lang="en-US">page 5</lang></speak>',
      'Lee page 5',
    ],
    [
      'nesting: say-as in emphasis in s in p',
      '<speak><p><s><emphasis><say-as interpret-as="characters">AB</say-as></emphasis></s></p></speak>',
      'a be',
    ],
    [
      'Spanish lang inside a Spanish voice keeps the rules',
      '<speak><lang xml:lang="es-ES">5 €</lang></speak>',
      'cinco euros',
    ],
  ])('%s', (_name, xml, expected) => {
    expect(spoken(xml)).toBe(expected);
  });

  test('chars counts the text content, as Polly bills (tags and attributes not counted)', () => {
    expect(
      parseSsml('<speak>Hola <break time="1s"/><sub alias="larguísimo alias">OMS</sub></speak>').chars,
    ).toBe(8);
    expect(parsePieces('<speak>a &amp; b</speak>', 'ssml', 'es-MX').chars).toBe(5);
  });
});

describe('engine input', () => {
  test('Polly gets SSML: breaks, lang; emphasis dropped for neural voices', () => {
    const [chunk] = polly(
      '<speak>Uno <break time="2s"/> <emphasis>dos</emphasis> <lang xml:lang="en-US">three</lang></speak>',
    );
    expect(chunk).toEqual({
      ssml: true,
      text: '<speak>Uno <break time="2000ms"/> dos <lang xml:lang="en-US">three</lang></speak>',
    });
    expect(markupFor('polly', mia)).toEqual({ dialect: 'polly', emphasis: false, phoneme: true });
  });

  test('espeak-ng gets its own SSML: <voice xml:lang>, <emphasis> kept', () => {
    const [chunk] = espeak(
      '<speak><emphasis level="reduced">dos</emphasis> <lang xml:lang="en-GB">three</lang></speak>',
    );
    expect(chunk!.text).toBe(
      '<speak><emphasis level="reduced">dos</emphasis> <voice xml:lang="en-GB">three</voice></speak>',
    );
  });

  test('text is escaped again for the engine', () => {
    expect(polly('<speak>a &lt;b&gt;<break/>&amp; "c"</speak>')[0]!.text).toBe(
      '<speak>a &lt;b&gt;<break strength="medium"/>&amp; &quot;c&quot;</speak>',
    );
  });

  test('long SSML is cut between pieces, each chunk a complete document within the limit', () => {
    const para = 'Esta es una frase de prueba bastante larga. '.repeat(20);
    const xml = `<speak>${`<p>${para}<break time="1s"/><emphasis>fin</emphasis></p>`.repeat(10)}</speak>`;
    const chunks = engineInputs(xml, lucia, 'espeak-cli', 1000, { textType: 'ssml' });
    expect(chunks.length).toBeGreaterThan(8);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(1000);
      expect(c.text).toMatch(/^<speak>.*<\/speak>$/s);
      expect(() => parseSsml(c.text.replace(/<voice /g, '<lang '))).not.toThrow();
    }
    expect(
      chunks
        .map((c) => c.text)
        .join('')
        .match(/<break time="1000ms"\/>/g),
    ).toHaveLength(10);
  });

  test('plain text is sent exactly as before (no markup)', () => {
    expect(engineInputs('Hola, son $5.', mia, 'polly', 3000)).toEqual([
      { text: 'Hola, son cinco pesos.', ssml: false },
    ]);
  });
});

describe('refused, with the position', () => {
  const refused: [string, string, number, number, RegExp][] = [
    ['not SSML at all', 'hola', 1, 1, /wrap the text in <speak>/],
    ['root is not speak', '<p>x</p>', 1, 1, /root element must be <speak>/],
    ['unknown element', '<speak>\n  a <foo/></speak>', 2, 5, /<foo> is not supported/],
    [
      'prefixed vendor element',
      '<speak><amazon:effect name="whispered">x</amazon:effect></speak>',
      1,
      8,
      /not supported/,
    ],
    ['phoneme is not in the subset', '<speak><phoneme ph="a">x</phoneme></speak>', 1, 8, /not supported/],
    ['unknown attribute', '<speak><break foo="1"/></speak>', 1, 8, /no attribute "foo"/],
    ['bad break time', '<speak>\n<break time="mucho"/></speak>', 2, 1, /duration such as "2s"/],
    ['break over 10 s', '<speak><break time="11s"/></speak>', 1, 8, /longer than 10s/],
    ['bad break strength', '<speak><break strength="huge"/></speak>', 1, 8, /strength/],
    ['break with content', '<speak><break>x</break></speak>', 1, 16, /must be empty/],
    ['say-as without interpret-as', '<speak><say-as>x</say-as></speak>', 1, 8, /needs interpret-as/],
    [
      'say-as unknown kind',
      '<speak><say-as interpret-as="cardinal">5</say-as></speak>',
      1,
      8,
      /not supported/,
    ],
    [
      'say-as date unreadable',
      '<speak><say-as interpret-as="date">ayer</say-as></speak>',
      1,
      8,
      /cannot read "ayer"/,
    ],
    [
      'say-as digits with letters',
      '<speak><say-as interpret-as="digits">12a</say-as></speak>',
      1,
      8,
      /cannot read/,
    ],
    [
      'say-as with an element inside',
      '<speak><say-as interpret-as="digits"><break/></say-as></speak>',
      1,
      38,
      /only text/,
    ],
    ['sub without alias', '<speak><sub>OMS</sub></speak>', 1, 8, /needs an alias/],
    ['emphasis bad level', '<speak><emphasis level="loud">x</emphasis></speak>', 1, 8, /level="loud"/],
    ['lang unknown language', '<speak><lang xml:lang="xx-YY">x</lang></speak>', 1, 8, /not supported/],
    ['lang without xml:lang', '<speak><lang>x</lang></speak>', 1, 8, /needs xml:lang/],
    ['p inside s', '<speak><s><p>x</p></s></speak>', 1, 11, /<p> may not appear inside <s>/],
    ['speak nested', '<speak><speak>x</speak></speak>', 1, 8, /only be the root/],
    [
      'emphasis inside emphasis',
      '<speak><emphasis><emphasis>x</emphasis></emphasis></speak>',
      1,
      18,
      /may not appear inside/,
    ],
    ['unclosed tag', '<speak><p>x</speak>', 1, 19, /not well-formed/],
    ['mismatched tags', '<speak>\n<s>x</p></speak>', 2, 8, /not well-formed/],
    ['text after the root', '<speak>x</speak>y', 1, 17, /not well-formed/],
    ['unquoted attribute', '<speak><break time=2s/></speak>', 1, 20, /not well-formed/],
    ['undefined entity', '<speak>&nbsp;</speak>', 1, 13, /undefined entity/],
    [
      'DOCTYPE with an internal entity',
      '<!DOCTYPE speak [<!ENTITY x "boom">]><speak>&x;</speak>',
      1,
      37,
      /DOCTYPE is not accepted/,
    ],
    [
      'XXE: external entity',
      '<!DOCTYPE speak [<!ENTITY x SYSTEM "file:///etc/passwd">]><speak>&x;</speak>',
      1,
      58,
      /DOCTYPE/,
    ],
    ['external DTD', '<!DOCTYPE speak SYSTEM "http://127.0.0.1:9/x.dtd"><speak>x</speak>', 1, 50, /DOCTYPE/],
    [
      'billion laughs',
      '<!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><speak>&b;</speak>',
      1,
      59,
      /DOCTYPE/,
    ],
    ['processing instruction', '<speak><?php echo 1 ?>x</speak>', 1, 22, /processing instruction/],
  ];

  test.each(refused)('%s', (_name, xml, line, column, reason) => {
    let error: unknown;
    try {
      parseSsml(xml);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SsmlError);
    const e = error as SsmlError;
    expect(e.reason).toMatch(reason);
    expect({ line: e.line, column: e.column }).toEqual({ line, column });
  });

  test('an entity is never expanded: the file named by an XXE is not read', () => {
    // If the parser resolved it, the words of /etc/passwd ("root") would be spoken; it refuses instead.
    expect(() =>
      parseSsml('<!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]><speak>&x;</speak>'),
    ).toThrow(SsmlError);
  });
});
