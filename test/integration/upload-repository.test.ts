// One contract for the UploadRepository (PDF upload slots): the DynamoDB adapter against the emulator (dynalite, the
// audio table, items keyed `upload#<id>`) and the in-memory fake the use-case tests run on. The claim is what keeps
// an upload single-use: of concurrent claims exactly one wins, and only the owner's, before the deadline.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  DynamoUploadRepository,
  UPLOAD_ITEM_PREFIX,
} from '../../lambdas/narration/adapters/upload-repository';
import type { PdfUpload, UploadRepository } from '../../lambdas/narration/ports';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { FakeUploadRepository } from '../fakes/narration';
import { withEmulators } from '../helpers/env';

jest.setTimeout(60_000);

let emu: Awaited<ReturnType<typeof withEmulators>>;
beforeAll(async () => {
  emu = await withEmulators();
});
afterAll(async () => {
  await emu?.cleanup();
});

const NOW = 1_800_000_000;
let n = 0;
const slot = (over: Partial<PdfUpload> = {}): PdfUpload => ({
  uploadId: `upl_test${String(++n).padStart(18, '0')}`,
  owner: 'ip#a',
  status: 'pending',
  createdAt: new Date(NOW * 1000).toISOString(),
  uploadBy: NOW + 900,
  convertBy: NOW + 3600,
  expiresAt: NOW + 86400,
  ...over,
});

const subjects: [string, () => UploadRepository][] = [
  ['in-memory fake', () => new FakeUploadRepository()],
  ['DynamoDB (audio table)', () => new DynamoUploadRepository(dynamo(), emu.tableNames.audio)],
];

describe.each(subjects)('%s', (_name, make) => {
  test('create / get round-trip; a second create of the same id is refused', async () => {
    const repo = make();
    const s = slot();
    await repo.create(s);
    expect(await repo.get(s.uploadId)).toEqual(s);
    await expect(repo.create(s)).rejects.toThrow();
    expect(await repo.get('upl_missing0000000000000')).toBeUndefined();
  });

  test('claim: only the owner, only before convertBy, only once — of 5 concurrent claims one wins', async () => {
    const repo = make();
    const s = slot();
    await repo.create(s);
    expect(await repo.claim(s.uploadId, 'ip#b', NOW)).toBe(false);
    expect(await repo.claim(s.uploadId, 'ip#a', s.convertBy)).toBe(false);
    const wins = await Promise.all([1, 2, 3, 4, 5].map(() => repo.claim(s.uploadId, 'ip#a', NOW)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await repo.get(s.uploadId)).toMatchObject({ status: 'used' });
    expect(await repo.claim('upl_missing0000000000000', 'ip#a', NOW)).toBe(false);
  });

  test('release gives a claimed id back; once complete, it stays used with the audio it became', async () => {
    const repo = make();
    const s = slot();
    await repo.create(s);
    expect(await repo.claim(s.uploadId, 'ip#a', NOW)).toBe(true);
    await repo.release(s.uploadId);
    expect(await repo.get(s.uploadId)).toMatchObject({ status: 'pending' });
    expect(await repo.claim(s.uploadId, 'ip#a', NOW)).toBe(true);
    await repo.complete(s.uploadId, 'audio123');
    await repo.release(s.uploadId); // too late: the conversion happened
    expect(await repo.get(s.uploadId)).toMatchObject({ status: 'used', convertedTo: 'audio123' });
    expect(await repo.claim(s.uploadId, 'ip#a', NOW)).toBe(false);
  });

  test('a claim for an audio id (Idempotency-Key) is taken over by the same audio id only, until converted', async () => {
    const repo = make();
    const s = slot();
    await repo.create(s);
    expect(await repo.claim(s.uploadId, 'ip#a', NOW, 'audio-a')).toBe(true);
    expect(await repo.get(s.uploadId)).toMatchObject({ status: 'used', claimedFor: 'audio-a' });
    expect(await repo.claim(s.uploadId, 'ip#a', NOW)).toBe(false); // no key: a used id
    expect(await repo.claim(s.uploadId, 'ip#a', NOW, 'audio-b')).toBe(false); // another key
    expect(await repo.claim(s.uploadId, 'ip#b', NOW, 'audio-a')).toBe(false); // another caller
    expect(await repo.claim(s.uploadId, 'ip#a', s.convertBy, 'audio-a')).toBe(false); // too late
    expect(await repo.claim(s.uploadId, 'ip#a', NOW, 'audio-a')).toBe(true); // its retry takes it over
    await repo.release(s.uploadId);
    expect((await repo.get(s.uploadId))!.claimedFor).toBeUndefined();
    expect(await repo.claim(s.uploadId, 'ip#a', NOW, 'audio-b')).toBe(true);
    await repo.complete(s.uploadId, 'audio-b');
    expect(await repo.claim(s.uploadId, 'ip#a', NOW, 'audio-b')).toBe(false); // converted: once
  });
});

test('DynamoDB item: keyed upload#<id> in the audio table (GET /audio ids cannot contain #), with the TTL attribute', async () => {
  const repo = new DynamoUploadRepository(dynamo(), emu.tableNames.audio);
  const s = slot();
  await repo.create(s);
  const item = (
    await dynamo().send(
      new GetCommand({ TableName: emu.tableNames.audio, Key: { audioId: UPLOAD_ITEM_PREFIX + s.uploadId } }),
    )
  ).Item;
  expect(item).toMatchObject({ audioId: `upload#${s.uploadId}`, expiresAt: s.expiresAt, owner: 'ip#a' });
  expect(
    (await dynamo().send(new GetCommand({ TableName: emu.tableNames.audio, Key: { audioId: s.uploadId } })))
      .Item,
  ).toBeUndefined();
});
