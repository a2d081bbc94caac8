// Package cases of test/e2e/clients-typescript.test.ts: the built package type-checks in a consumer; its `voz` CLI.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { FFPROBE, ffprobe } from '../../helpers/runtime';
import { run, ROOT, files, keys, rt, site, smallPdf, dist } from './stand';

export function packageCases(): void {
  describe('the package', () => {
    test('a sample consumer type-checks against the built package (tsc --noEmit); wrong fields do not', async () => {
      const project = join(files.path, 'consumer');
      const pkg = join(project, 'node_modules', 'voz-client');
      mkdirSync(pkg, { recursive: true });
      cpSync(join(ROOT, 'clients/typescript/package.json'), join(pkg, 'package.json'));
      cpSync(dist, join(pkg, 'dist'), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', '@types'), join(project, 'node_modules', '@types'));
      cpSync(join(ROOT, 'clients/typescript/examples/consumer.ts'), join(project, 'consumer.ts'));
      writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            // @types/node's own files are not the subject (our declarations are still checked where the consumer uses them)
            skipLibCheck: true,
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noEmit: true,
            types: ['node'],
          },
          files: ['consumer.ts'],
        }),
      );
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const out = await run(process.execPath, [tsc, '-p', project]).then(
        () => 'ok',
        (e: { stdout: string }) => e.stdout,
      );
      expect(out).toBe('ok');

      // Installed, the bin answers as `npx voz` (package.json bin → dist/cli.js, run by its shebang).
      mkdirSync(join(project, 'node_modules', '.bin'));
      chmodSync(join(pkg, 'dist', 'cli.js'), 0o755);
      symlinkSync('../voz-client/dist/cli.js', join(project, 'node_modules', '.bin', 'voz'));
      const npx = await run('npx', ['--offline', '--no-install', 'voz', 'voces'], {
        cwd: project,
        env: { ...process.env, VOZ_NARRATION_URL: rt.narrationUrl },
      });
      expect(npx.stdout).toContain('es-MX-Mia');
    });

    test('CLI: narrar a PDF → MP3 (ffprobe); narrar a URL with --voz; factura --xml → PDFs (qpdf); render → xlsx; exit codes', async () => {
      const cli = join(dist, 'cli.js');
      const env = {
        ...process.env,
        VOZ_API_KEY: keys.pro,
        VOZ_NARRATION_URL: rt.narrationUrl,
        VOZ_DOCUMENTS_URL: rt.documentsUrl!,
      };
      const voz = (args: string[], extra: Record<string, string> = {}) =>
        run(process.execPath, [cli, ...args], { cwd: files.path, env: { ...env, ...extra } }).then(
          (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
          (e: { code: number; stdout: string; stderr: string }) => ({
            code: e.code,
            stdout: e.stdout,
            stderr: e.stderr,
          }),
        );
      const pdf = join(files.path, 'archivo.pdf');
      writeFileSync(pdf, smallPdf);
      const narrated = await voz(['narrar', pdf, '-o', 'audio.mp3']);
      expect(narrated.code).toBe(0);
      expect(narrated.stderr).toMatch(/Narrando/);
      expect(ffprobe(join(files.path, 'audio.mp3'))).toMatchObject({ codec: 'mp3' });
      execFileSync(FFPROBE, ['-v', 'error', join(files.path, 'audio.mp3')]);

      const fromUrl = await voz(['narrar', site.articleUrl, '--voz', 'es-MX-Mia', '-o', 'noticia.mp3']);
      expect(fromUrl).toMatchObject({ code: 0, stderr: expect.stringContaining('es-MX-Mia') });

      const xmls = ['ingreso-basico.xml', 'egreso-nota-credito.xml'].map((n) =>
        join(ROOT, 'test/fixtures/cfdi', n),
      );
      const fact = await voz(['factura', '--xml', ...xmls, '-o', 'pdfs/']);
      expect(fact.code).toBe(0);
      const pdfs = readdirSync(join(files.path, 'pdfs')).sort();
      expect(pdfs).toEqual(['egreso-nota-credito.pdf', 'ingreso-basico.pdf']);
      for (const f of pdfs) execFileSync('qpdf', ['--check', join(files.path, 'pdfs', f)]);

      writeFileSync(
        join(files.path, 'datos.json'),
        JSON.stringify({ title: 'Ventas', rows: [{ product: 'A', units: 1, revenue: 2 }] }),
      );
      expect((await voz(['render', 'ventas', 'datos.json', '-f', 'xlsx'])).code).toBe(0);
      expect(readFileSync(join(files.path, 'ventas.xlsx')).subarray(0, 2).toString()).toBe('PK');

      expect((await voz(['narrar'])).code).toBe(2); // usage
      expect((await voz(['narrar', 'no-existe.pdf'])).code).toBe(2); // unreadable input
      expect((await voz(['narrar', pdf], { VOZ_API_KEY: 'key_no_existe_0000000000000000' })).code).toBe(4);
      expect((await voz(['render', 'no-existe', 'datos.json'])).code).toBe(3);
      expect((await voz(['voces'], { VOZ_NARRATION_URL: 'http://127.0.0.1:1' })).code).toBe(6);
    });

    test('CLI: lote --xml → the batch zip; feed agregar / lista / borrar; --ayuda prints clients/cli-usage.txt', async () => {
      const cli = join(dist, 'cli.js');
      const env = { ...process.env, VOZ_NARRATION_URL: rt.narrationUrl, VOZ_DOCUMENTS_URL: rt.documentsUrl! };
      const voz = (args: string[], key: string) =>
        run(process.execPath, [cli, ...args], { cwd: files.path, env: { ...env, VOZ_API_KEY: key } }).then(
          (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
          (e: { code: number; stdout: string; stderr: string }) => e,
        );
      const xmls = ['ingreso-basico.xml', 'egreso-nota-credito.xml'].map((n) =>
        join(ROOT, 'test/fixtures/cfdi', n),
      );
      const lot = await voz(['lote', '--xml', ...xmls, '-o', 'lote.zip'], keys.scale);
      expect(lot).toMatchObject({ code: 0, stderr: expect.stringContaining('2 PDF, 0 rechazados') });
      const names = Object.keys(unzipSync(readFileSync(join(files.path, 'lote.zip'))));
      expect(names.filter((n) => n.endsWith('.pdf'))).toHaveLength(2);

      // The same feed and voice as the client's feed test: its article's audio is reused, nothing narrated again.
      const added = await voz(['feed', 'agregar', site.feedUrl, '--voz', 'es-MX-Mia'], keys.pro);
      expect(added).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(/^fd_\S+\thttp:\S+\/podcast\.xml\n$/),
      });
      const id = added.stdout.split('\t')[0]!;
      expect((await voz(['feed', 'lista'], keys.pro)).stdout).toContain(`${id}\tactive\t${site.feedUrl}`);
      const deleted = await voz(['feed', 'borrar', id, '--borrar-audio'], keys.pro);
      expect(JSON.parse(deleted.stdout)).toMatchObject({ deleted: true });
      expect((await voz(['feed', 'ver', id], keys.pro)).code).toBe(3);
      expect((await voz(['feed', 'ver'], keys.pro)).code).toBe(2);

      const help = await voz(['--ayuda'], keys.pro);
      expect(help.stdout).toBe(readFileSync(join(ROOT, 'clients/cli-usage.txt'), 'utf8'));
    });
  });
}
