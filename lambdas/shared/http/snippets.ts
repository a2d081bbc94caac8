// The code samples GET /api shows for every operation: curl, TypeScript (fetch, Node ≥ 20) and Python (standard
// library only), made from the route's own docs — method, path, its example body (route-doc.ts), whether it needs a
// key — so they cannot drift from the route. They read the API's address from VOZ_API and the key from VOZ_API_KEY;
// an id that must exist first (an audio, a render job) from AUDIO_ID / JOB_ID. test/e2e/api-snippets.test.ts runs
// the curl and Python samples of every operation it can against the local runtime.
import type { RouteDoc } from './route-doc';

export interface CodeSample {
  lang: 'curl' | 'TypeScript' | 'Python';
  label: string;
  source: string;
}

/** Values for path parameters: a literal a fresh service has, or an environment variable for an id made first. */
const PATH_VALUES: Record<string, { literal: string } | { env: string }> = {
  audio_id: { env: 'AUDIO_ID' },
  id: { env: 'JOB_ID' },
  segment: { literal: '0.mp3' },
  experiment: { literal: 'precios' },
  plan: { literal: 'pro' },
  name: { literal: 'marcas' },
  slug: { literal: 'factura' },
};
/** Files per path: the site's stylesheet, the reference page's own. */
const FILE_BY_PATH: Record<string, string> = {
  '/site/{file}': 'app.css',
  '/api/assets/{file}': 'api-reference.css',
};
/** Required query parameters' example values. */
const QUERY_VALUES: Record<string, string> = { email: 'ana.lopez@ejemplo.mx', session_id: 'cs_test_ejemplo' };

type Part = { literal: string } | { env: string };

function pathParts(path: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const m of path.matchAll(/\{([^}+]+)\+?\}/g)) {
    parts.push({ literal: path.slice(last, m.index) });
    const name = m[1]!;
    parts.push(
      name === 'file'
        ? { literal: FILE_BY_PATH[path] ?? 'app.css' }
        : (PATH_VALUES[name] ?? { literal: name }),
    );
    last = m.index + m[0].length;
  }
  parts.push({ literal: path.slice(last) });
  return parts;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const py = (v: unknown) =>
  JSON.stringify(v, null, 4)
    .replace(/\btrue\b/g, 'True')
    .replace(/\bfalse\b/g, 'False')
    .replace(/\bnull\b/g, 'None');

/**
 * What a 2xx answer is: JSON (printed), text (printed) or a file (saved as `salida.<ext>`). An answer documented
 * with neither a schema nor a content type (a static file of any type) is printed as text.
 */
function answerKind(doc: RouteDoc): { kind: 'json' | 'text' | 'file'; ext?: string } {
  const ok = Object.entries(doc.responses).find(([s]) => s.startsWith('2'))?.[1];
  const type =
    ok?.contentType ?? ok?.contentTypes?.[0] ?? (ok && !ok.schema ? 'text/plain' : 'application/json');
  if (/json/.test(type)) return { kind: 'json' };
  if (/^text\/|javascript|mpegurl/.test(type)) return { kind: 'text' };
  return { kind: 'file', ext: type === 'application/pdf' ? 'pdf' : 'bin' };
}

export function codeSamples(
  method: string,
  path: string,
  doc: RouteDoc,
  example: Record<string, unknown> | undefined,
): CodeSample[] {
  const parts = pathParts(path);
  const query = (doc.params ?? []).filter((p) => p.in === 'query' && p.required && QUERY_VALUES[p.name]);
  const qs = query.length
    ? `?${query.map((p) => `${p.name}=${encodeURIComponent(QUERY_VALUES[p.name]!)}`).join('&')}`
    : '';
  const key = doc.bearer === 'required' || (doc.bearer === 'optional' && doc.sampleKey === true);
  const bodyType = doc.body?.contentTypes[0];
  const multipart = bodyType === 'multipart/form-data';
  const answer = answerKind(doc);
  const out = answer.kind === 'file' ? `salida.${answer.ext}` : undefined;

  // curl
  const curlUrl = `"$VOZ_API${parts.map((p) => ('env' in p ? `$${p.env}` : p.literal)).join('')}${qs}"`;
  const curl = [`curl --fail-with-body -sS -L -X ${method} ${curlUrl}`];
  const accept = answer.kind === 'file' ? '*/*' : 'application/json';
  curl.push(`  -H 'Accept: ${accept}'`);
  if (key) curl.push(`  -H "Authorization: Bearer $VOZ_API_KEY"`);
  if (example && multipart) {
    curl.push(`  -F 'file=@documento.pdf'`);
    for (const [k, v] of Object.entries(example)) curl.push(`  -F ${shellQuote(`${k}=${String(v)}`)}`);
  } else if (example) {
    curl.push(`  -H 'Content-Type: application/json'`);
    curl.push(`  -d ${shellQuote(JSON.stringify(example))}`);
  }
  if (out) curl.push(`  -o ${out}`);

  // TypeScript
  const tsUrl = `\`\${process.env.VOZ_API}${parts.map((p) => ('env' in p ? `\${process.env.${p.env}}` : p.literal)).join('')}${qs}\``;
  const tsHeaders = [`accept: '${accept}'`];
  if (key) tsHeaders.push('authorization: `Bearer ${process.env.VOZ_API_KEY}`');
  const ts: string[] = [];
  if (example && multipart) {
    ts.push(`import { openAsBlob } from 'node:fs';`, '', 'const form = new FormData();');
    ts.push(`form.append('file', await openAsBlob('documento.pdf'), 'documento.pdf');`);
    for (const [k, v] of Object.entries(example))
      ts.push(`form.append(${JSON.stringify(k)}, ${JSON.stringify(String(v))});`);
  } else if (example) tsHeaders.push(`'content-type': 'application/json'`);
  if (out) ts.unshift(`import { writeFile } from 'node:fs/promises';`, ...(ts.length ? [] : ['']));
  ts.push(
    `const res = await fetch(${tsUrl}, {`,
    `  method: '${method}',`,
    `  headers: { ${tsHeaders.join(', ')} },`,
  );
  if (example && multipart) ts.push('  body: form,');
  else if (example)
    ts.push(`  body: JSON.stringify(${JSON.stringify(example, null, 2).replace(/\n/g, '\n  ')}),`);
  ts.push('});', 'if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);');
  if (out) ts.push(`await writeFile('${out}', Buffer.from(await res.arrayBuffer()));`);
  else if (answer.kind === 'json' && !/^20[4]$/.test(okStatus(doc)))
    ts.push('console.log(res.status, await res.json());');
  else ts.push('console.log(res.status, await res.text());');

  // Python (standard library)
  const pyUrl = `os.environ["VOZ_API"] + ${parts
    .map((p) => ('env' in p ? `os.environ["${p.env}"]` : JSON.stringify(p.literal)))
    .filter((s) => s !== '""')
    .join(' + ')}${qs ? ` + ${JSON.stringify(qs)}` : ''}`;
  const pyHeaders = [`"Accept": "${accept}"`];
  if (key) pyHeaders.push(`"Authorization": "Bearer " + os.environ["VOZ_API_KEY"]`);
  const python: string[] = ['import os', 'import urllib.request'];
  let data = 'None';
  if (example && multipart) {
    python.splice(1, 0, 'import uuid');
    python.push(
      '',
      'boundary = uuid.uuid4().hex',
      `fields = ${py(Object.fromEntries(Object.entries(example).map(([k, v]) => [k, String(v)])))}`,
      'with open("documento.pdf", "rb") as f:',
      '    pdf = f.read()',
      'data = b"".join(',
      '    f\'--{boundary}\\r\\nContent-Disposition: form-data; name="{k}"\\r\\n\\r\\n{v}\\r\\n\'.encode()',
      '    for k, v in fields.items()',
      ') + (',
      '    f\'--{boundary}\\r\\nContent-Disposition: form-data; name="file"; filename="documento.pdf"\\r\\n\'',
      '    "Content-Type: application/pdf\\r\\n\\r\\n"',
      ').encode() + pdf + f"\\r\\n--{boundary}--\\r\\n".encode()',
    );
    pyHeaders.push(`"Content-Type": f"multipart/form-data; boundary={boundary}"`);
    data = 'data';
  } else if (example) {
    python.splice(0, 0, 'import json');
    python.push('', `body = ${py(example)}`);
    pyHeaders.push(`"Content-Type": "application/json"`);
    data = 'json.dumps(body, ensure_ascii=False).encode("utf-8")';
  }
  python.push(
    '',
    'req = urllib.request.Request(',
    `    ${pyUrl},`,
    `    method="${method}",`,
    `    data=${data},`,
    `    headers={${pyHeaders.join(', ')}},`,
    ')',
    'with urllib.request.urlopen(req) as res:  # raises HTTPError on 4xx/5xx',
  );
  if (out)
    python.push(
      `    with open("${out}", "wb") as f:`,
      '        f.write(res.read())',
      '    print(res.status)',
    );
  else python.push('    print(res.status, res.read().decode("utf-8"))');

  return [
    { lang: 'curl', label: 'curl', source: curl.join(' \\\n') },
    { lang: 'TypeScript', label: 'TypeScript', source: ts.join('\n') },
    { lang: 'Python', label: 'Python', source: python.join('\n') },
  ];
}

function okStatus(doc: RouteDoc): string {
  return Object.keys(doc.responses).find((s) => s.startsWith('2')) ?? '200';
}

/** The samples as the markdown GET /api appends to the operation's description. */
export function samplesMarkdown(samples: CodeSample[]): string {
  const fence = { curl: 'bash', TypeScript: 'ts', Python: 'python' } as const;
  return [
    '**Ejemplos** (`export VOZ_API=<dirección de la API>`; con clave: `VOZ_API_KEY`)',
    ...samples.map((s) => `${s.label}:\n\n\`\`\`${fence[s.lang]}\n${s.source}\n\`\`\``),
  ].join('\n\n');
}
