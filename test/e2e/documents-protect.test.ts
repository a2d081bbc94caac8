// options.password / options.permissions out of real Chromium, read back by qpdf (an independent implementation of
// the PDF security handler) and poppler: the file needs the password to open (`qpdf --requires-password` exit 0),
// opens with it and only with it, is AES-256 (R 6), and carries the permissions asked for (`--show-encryption`).
// Also: permissions alone open without a password; PDF/A and protection refuse each other (400 naming both); the
// cfdi_xml default of PDF/A gives way to an explicit password; the free plan's watermark is inside the encrypted file.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sample from '../../templates/factura/sample.json';
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { templateRenderer } from '../helpers/template-render';

jest.setTimeout(120_000);

const tpl = templateRenderer('factura');
const XML = readFileSync(join(__dirname, '..', 'fixtures', 'cfdi', 'ingreso-basico.xml'), 'utf8');
const PASSWORD = 'contraseña-Ñandú 2026'; // non-ASCII on purpose: UTF-8 as ISO 32000-2 says

/** qpdf's exit code (0 ok, 2 errors, 3 warnings) and its output. */
function qpdf(args: string[]): { status: number; out: string } {
  const r = spawnSync('qpdf', args, { encoding: 'utf8' });
  return { status: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/** `qpdf --show-encryption` as {name: value} lines ("print high resolution: not allowed" → {...: 'not allowed'}). */
function encryption(file: string, password: string): Record<string, string> {
  const { status, out } = qpdf([`--password=${password}`, '--show-encryption', file]);
  expect(status).toBe(0);
  return Object.fromEntries(
    out
      .split('\n')
      .map((l) => /^\s*([^:=]+?)\s*[:=]\s*(.+?)\s*$/.exec(l))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => [m[1]!.toLowerCase(), m[2]!]),
  );
}

/** pdftotext in content-stream order (-raw: the diagonal watermark stays one line), whitespace runs as one space. */
function pdftotext(file: string, password?: string): { status: number | null; stdout: string } {
  const r = spawnSync(
    'pdftotext',
    ['-raw', ...(password !== undefined ? ['-upw', password] : []), '-q', file, '-'],
    { encoding: 'utf8' },
  );
  return { status: r.status, stdout: r.stdout.replace(/\s+/g, ' ') };
}

it('options.password: AES-256; opens with the password only; text and page count as without it', async () => {
  const { file } = await tpl.renderBody({ data: sample, options: { password: PASSWORD } });
  // --requires-password: 0 = a password is required, 2 = not encrypted, 3 = encrypted but opens without one.
  expect(qpdf(['--requires-password', file]).status).toBe(0);
  expect(qpdf([`--password=${PASSWORD}`, '--requires-password', file]).status).toBe(3);
  expect(qpdf([`--password=${PASSWORD}`, '--check', file]).out).toMatch(
    /No syntax or stream encoding errors/,
  );
  const wrong = qpdf(['--password=contrasena', '--check', file]);
  expect(wrong.status).toBe(2);
  expect(wrong.out).toMatch(/invalid password/i);
  expect(qpdf(['--check', file]).status).toBe(2); // no password at all

  const enc = encryption(file, PASSWORD);
  expect(enc['r']).toBe('6');
  expect(enc['stream encryption method']).toBe('AESv3');
  expect(enc['string encryption method']).toBe('AESv3');
  expect(enc['print high resolution']).toBe('allowed'); // no permissions asked: everything allowed

  // The content is there for whoever has the password, and nothing is readable without it.
  const withPw = pdftotext(file, PASSWORD);
  expect(withPw.status).toBe(0);
  expect(withPw.stdout).toContain(sample.empresa);
  const without = pdftotext(file);
  expect(without.status).not.toBe(0);
  expect(without.stdout).not.toContain(sample.empresa);
  expect(readFileSync(file).includes(Buffer.from(sample.empresa))).toBe(false);
});

it('options.permissions: each flag shows in qpdf --show-encryption; alone, the PDF opens without a password', async () => {
  const { file } = await tpl.renderBody({
    data: sample,
    options: { permissions: { print: true, copy: false, modify: false, annotate: false } },
  });
  expect(qpdf(['--requires-password', file]).status).toBe(3); // encrypted, opens with the empty password
  const enc = encryption(file, '');
  expect(enc).toMatchObject({
    'print low resolution': 'allowed',
    'print high resolution': 'allowed',
    'extract for any purpose': 'not allowed',
    'extract for accessibility': 'allowed', // screen readers keep working
    'modify document assembly': 'not allowed',
    'modify other': 'not allowed',
    'modify annotations': 'not allowed',
    'modify forms': 'not allowed',
  });
  expect(pdftotext(file).stdout).toContain(sample.empresa);

  const { file: other } = await tpl.renderBody({
    data: sample,
    options: { password: PASSWORD, permissions: { print: false, copy: true } },
  });
  expect(qpdf(['--requires-password', other]).status).toBe(0);
  expect(encryption(other, PASSWORD)).toMatchObject({
    'print low resolution': 'not allowed',
    'print high resolution': 'not allowed',
    'extract for any purpose': 'allowed',
    'modify other': 'allowed', // not mentioned: allowed
  });
});

it('free plan: the watermark is drawn before encryption, so it is inside the protected file', async () => {
  const { file } = await tpl.renderBody(
    { data: sample, options: { password: PASSWORD } },
    { watermark: true },
  );
  // Drawn along the diagonal, pdftotext spaces its letters out.
  expect(pdftotext(file, PASSWORD).stdout.replace(/ /g, '')).toContain('Generadoconelplangratuito');
  const { file: paid } = await tpl.renderBody({ data: sample, options: { password: PASSWORD } });
  expect(pdftotext(paid, PASSWORD).stdout.replace(/ /g, '')).not.toContain('Generadoconelplangratuito');
});

it('cfdi_xml with a password: a protected plain PDF (PDF/A gives way); pdfa true with a password is a 400', async () => {
  const { file } = await tpl.renderBody({ cfdi_xml: XML, options: { password: PASSWORD } });
  expect(qpdf(['--requires-password', file]).status).toBe(0);
  const text = pdftotext(file, PASSWORD).stdout;
  expect(text).toMatch(/[0-9A-F]{8}-[0-9A-F]{4}-/); // the UUID is printed

  const both = validateRenderRequest({
    template: 'factura',
    format: 'pdf',
    cfdi_xml: XML,
    options: { pdfa: true, password: PASSWORD, permissions: { copy: false } },
  });
  expect(both.ok).toBe(false);
  if (both.ok) throw new Error('unreachable: asserted not ok above'); // narrows the type
  expect(both.problems).toEqual([
    expect.objectContaining({
      loc: ['body', 'options', 'pdfa'],
      type: 'option_conflict',
      msg: expect.stringContaining('PDF/A forbids encryption'),
      ctx: { conflicts_with: ['options.password', 'options.permissions'] },
    }),
  ]);
});

it('bad protection values → 400 items at their loc, every problem at once', () => {
  const r = validateRenderRequest({
    template: 'factura',
    format: 'html',
    data: sample,
    options: { password: 'ñ'.repeat(64), permissions: { print: 'yes', delete: true } },
  });
  expect(r.ok).toBe(false);
  if (r.ok) throw new Error('unreachable: asserted not ok above'); // narrows the type
  const at = (loc: string) => r.problems.filter((p) => p.loc.join('.') === loc).map((p) => p.type);
  expect(at('body.options.permissions.print')).toEqual(['bool_type']);
  expect(
    r.problems.some((p) => p.loc.join('.').startsWith('body.options.permissions') && /delete/.test(p.msg)),
  ).toBe(true);
  expect(at('body.options.password')).toEqual(['string_too_long', 'unsupported_option']);
  expect(at('body.options.permissions')).toContain('unsupported_option');
  const empty = validateRenderRequest({
    template: 'factura',
    format: 'pdf',
    data: sample,
    options: { password: '' },
  });
  expect(empty.ok).toBe(false);
  // 127 bytes of UTF-8 is the limit, not 127 characters.
  expect(
    validateRenderRequest({
      template: 'factura',
      format: 'pdf',
      data: sample,
      options: { password: 'ñ'.repeat(63) },
    }).ok,
  ).toBe(true);
});
