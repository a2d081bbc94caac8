// multipart/form-data bodies (file uploads) from the raw request bytes. API Gateway delivers binary bodies
// base64-encoded; ApiRequest.rawBody() has already decoded them. Parsing is done by busboy (the parser behind
// multer and fastify's multipart, ~100M downloads a month, no dependencies) with limits on every dimension: one
// expected file, its size, text field sizes and the number of parts. Problems become the contract's 422 items
// (loc ['body', <field>]); a body that is not multipart at all gets 415 like parseBody's.
import busboy from 'busboy';
import { InvalidInput, type ValidationItem } from '../errors';
import { HttpError } from './errors';

export interface MultipartSpec {
  /** The one file part expected, e.g. `file`. */
  file: {
    field: string;
    maxBytes: number;
    /** How the limit is shown to callers, e.g. "20 MB". */ label: string;
  };
  /** Text fields read; others are ignored (as unknown JSON keys are). */
  fields: readonly string[];
  /** Most bytes of one text field. */
  maxFieldBytes?: number;
  /** Most parts (files + fields) in the body. */
  maxParts?: number;
}

export interface MultipartFile {
  filename: string;
  mimeType: string;
  data: Buffer;
}

export interface Multipart {
  fields: Record<string, string>;
  file?: MultipartFile;
}

const curlHint = (field: string) => `e.g. curl -F "${field}=@document.pdf"`;

/** Parses `raw`; throws 415 for other media types and 422 items for malformed or over-limit bodies. */
export async function parseMultipart(
  raw: Buffer,
  contentType: string | undefined,
  spec: MultipartSpec,
): Promise<Multipart> {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'multipart/form-data')
    throw new HttpError(
      415,
      `Unsupported Content-Type '${type}'. Send multipart/form-data with the file in a field named ` +
        `'${spec.file.field}' (${curlHint(spec.file.field)}).`,
    );
  const maxField = spec.maxFieldBytes ?? 1024;
  const maxParts = spec.maxParts ?? 10;
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { 'content-type': contentType },
      defCharset: 'utf8',
      defParamCharset: 'utf8',
      limits: {
        // One byte over the limit is enough to know the file is too large (busboy stops collecting there).
        fileSize: spec.file.maxBytes + 1,
        files: 2, // the expected file and one misnamed or duplicate, reported precisely below
        fields: maxParts,
        parts: maxParts,
        fieldSize: maxField,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    });
  } catch (err) {
    throw new InvalidInput([
      {
        loc: ['body'],
        msg:
          `Malformed multipart body (${(err as Error).message}). Let your HTTP client build the form ` +
          `(${curlHint(spec.file.field)}) rather than setting the Content-Type header by hand.`,
        type: 'multipart_invalid',
      },
    ]);
  }

  return new Promise<Multipart>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const problems: ValidationItem[] = [];
    const otherFiles: string[] = [];
    let file: MultipartFile | undefined;
    let fileCount = 0;
    let textForFile = false;
    let failed = false;
    const fail = (item: ValidationItem) => {
      if (failed) return;
      failed = true;
      reject(new InvalidInput([item]));
    };

    bb.on('file', (name, stream, info) => {
      if (name !== spec.file.field) {
        otherFiles.push(name);
        stream.resume();
        return;
      }
      fileCount++;
      if (fileCount > 1) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        size += c.length;
        chunks.push(c);
      });
      // busboy reports a body cut short on the part's stream as well as on itself; the latter answers.
      stream.on('error', () => undefined);
      stream.on('end', () => {
        if (size > spec.file.maxBytes)
          problems.push({
            loc: ['body', spec.file.field],
            msg: `File is larger than ${spec.file.label}, the limit for uploads. Reduce its size (e.g. "Reduce file size" or "Print to PDF" without images) or split it, then upload again.`,
            type: 'file_too_large',
          });
        else
          file = {
            filename: info.filename ?? '',
            mimeType: info.mimeType,
            data: Buffer.concat(chunks, size),
          };
      });
    });
    bb.on('field', (name, value, info) => {
      if (name === spec.file.field) {
        textForFile = true;
        return;
      }
      if (!spec.fields.includes(name) || name in fields) return;
      if (info.valueTruncated)
        problems.push({
          loc: ['body', name],
          msg: `Value is longer than ${maxField} bytes, the limit for form fields`,
          type: 'string_too_long',
        });
      fields[name] = value;
    });
    const tooMany = () =>
      fail({
        loc: ['body'],
        msg: `The form has too many parts; send only '${spec.file.field}'${spec.fields.length ? ` and ${spec.fields.map((f) => `'${f}'`).join(', ')}` : ''}.`,
        type: 'too_many_parts',
      });
    bb.on('partsLimit', tooMany);
    bb.on('filesLimit', tooMany);
    bb.on('fieldsLimit', tooMany);
    bb.on('error', (err: Error) =>
      fail({
        loc: ['body'],
        msg: `Malformed multipart body (${err.message}). Let your HTTP client build the form (${curlHint(spec.file.field)}).`,
        type: 'multipart_invalid',
      }),
    );
    bb.on('close', () => {
      if (failed) return;
      if (problems.length) return fail(problems[0]!);
      const loc = ['body', spec.file.field];
      if (fileCount > 1)
        return fail({
          loc,
          msg: `Send exactly one file in the field '${spec.file.field}'; ${fileCount} were sent.`,
          type: 'too_many_files',
        });
      if (!file) {
        if (textForFile)
          return fail({
            loc,
            msg: `Expected an uploaded file in '${spec.file.field}', got a text value. Send the file itself (${curlHint(spec.file.field)}).`,
            type: 'value_error',
          });
        return fail({
          loc,
          msg: otherFiles.length
            ? `Field required: a file was sent as '${otherFiles[0]}'; name the field '${spec.file.field}'.`
            : 'Field required',
          type: 'missing',
        });
      }
      resolve({ fields, file });
    });
    bb.end(raw);
  });
}
