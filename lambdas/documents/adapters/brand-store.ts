// DynamoDB BrandStore (../ports.ts): the brand an account stored with PUT /v1/brand, in the accounts table as two
// items under BRAND_ITEM_PREFIX: `brand#<owner>` (colour, texts, the logo's hash: under 4 KB, one read unit) and
// `brand#<owner>#logo#<sha256>` (the logo, up to ~270 KB as a data URI: ~68 read units). Renders read the small item
// every time (a brand changed or removed prints at once) and the logo once per container: logo items are
// content-addressed, so the process-wide cache below is never stale. Only the brand routes and POST /v1/render may
// touch `brand#` items (routes.ts, itemPrefixes). No transactions (dynalite has none): the logo is written before the
// item that names it, and the replaced logo is deleted after; a crash between leaves at most an unreferenced logo.
import { createHash } from 'node:crypto';
import { DynamoTable } from '../../shared/aws/dynamo-table';
import type { BrandStore, StoredBrand } from '../ports';
import { BRAND_ITEM_PREFIX } from './item-prefixes';

const brandKey = (owner: string) => ({ pk: BRAND_ITEM_PREFIX + owner });
const logoKey = (owner: string, hash: string) => ({ pk: `${BRAND_ITEM_PREFIX}${owner}#logo#${hash}` });

/** Logos by item key, at most LOGOS_MAX (~270 KB each at most). */
const logos = new Map<string, string>();
const LOGOS_MAX = 32;

interface BrandItem extends Omit<StoredBrand, 'marca'> {
  marca: Omit<StoredBrand['marca'], 'logo'>;
  /** sha256 (hex) of the logo's data URI, when it has one. */
  logoHash?: string;
}

export class DynamoBrandStore extends DynamoTable implements BrandStore {
  async get(owner: string): Promise<StoredBrand | undefined> {
    const out = await this.readItem({ Key: brandKey(owner), ConsistentRead: true });
    if (!out.Item) return undefined;
    const { pk: _pk, logoHash, ...brand } = out.Item as BrandItem & { pk: string };
    if (!logoHash) return brand;
    const key = logoKey(owner, logoHash);
    let logo = logos.get(key.pk);
    if (logo === undefined) {
      const item = await this.readItem({ Key: key, ConsistentRead: true });
      if (typeof item.Item?.logo !== 'string') return brand; // removed meanwhile: print the rest
      logo = item.Item.logo;
      if (logos.size >= LOGOS_MAX) logos.delete(logos.keys().next().value!);
      logos.set(key.pk, logo);
    }
    return { ...brand, marca: { ...brand.marca, logo } };
  }

  async put(brand: StoredBrand): Promise<{ replaced: boolean }> {
    const { logo, ...rest } = brand.marca;
    const logoHash = logo === undefined ? undefined : createHash('sha256').update(logo).digest('hex');
    if (logo !== undefined) await this.writeItem({ Item: { ...logoKey(brand.owner, logoHash!), logo } });
    const item: BrandItem = { ...brand, marca: rest, ...(logoHash ? { logoHash } : {}) };
    const out = await this.writeItem({
      Item: { ...brandKey(brand.owner), ...item },
      ReturnValues: 'ALL_OLD',
    });
    const old = out.Attributes as BrandItem | undefined;
    if (old?.logoHash && old.logoHash !== logoHash) await this.removeLogo(brand.owner, old.logoHash);
    return { replaced: old !== undefined };
  }

  async remove(owner: string): Promise<boolean> {
    const out = await this.deleteItem({ Key: brandKey(owner), ReturnValues: 'ALL_OLD' });
    const old = out.Attributes as BrandItem | undefined;
    if (old?.logoHash) await this.removeLogo(owner, old.logoHash);
    return old !== undefined;
  }

  private async removeLogo(owner: string, hash: string): Promise<void> {
    const key = logoKey(owner, hash);
    logos.delete(key.pk);
    await this.deleteItem({ Key: key });
  }
}
