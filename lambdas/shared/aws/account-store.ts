// DynamoDB AccountStore (table `accounts`, partition key `pk`). Item kinds, by key prefix:
//   acct#<customer id>     the account: service, plan, subscription state, key hashes, version (lambdas/shared/billing)
//   email#<e-mail>         pointer: the accounts bought with this e-mail (support's key replacement)
//   evt#<event id>         a Stripe event being or done processed (idempotency); TTL 30 days
//   purchase#<session ref> a completed checkout and its key's hash; kept (stops a second key for the session)
//   pickup#<session ref>   the new key, sealed, until picked up; TTL = end of the pick-up window
// Every write is a single-item conditional write (no transactions: DynamoDB Local emulators lack them, and
// each step is idempotent on its own, see billing/service.ts).
import { DynamoTable } from './dynamo-table';
import type { Account } from '../billing/account';
import { conditionHeld, isConditionFailure } from './conditional';
import { TERMINAL_SUBSCRIPTION_STATUSES } from '../billing/plans';
import type {
  AccountStore,
  EventClaim,
  PickupRecord,
  PickupResult,
  PurchaseRecord,
  PurchaseUpdate,
  SubscriptionUpdate,
} from '../billing/ports';

/** Stripe retries an event for up to 3 days; ids are remembered well beyond that. */
const EVENT_TTL_S = 30 * 86400;

const acct = (id: string) => `acct#${id}`;

function toAccount(item: Record<string, unknown> | undefined): Account | undefined {
  if (!item) return undefined;
  const { pk: _pk, keyHashes, ...rest } = item;
  return {
    ...(rest as Omit<Account, 'keyHashes'>),
    keyHashes: keyHashes instanceof Set ? [...(keyHashes as Set<string>)].sort() : [],
    version: Number(rest.version ?? 0),
  };
}

/** Adds `SET #alias = if_not_exists(#alias, :alias)` for `attribute`: the first value written stays. */
function keepFirst(
  update: { sets: string[]; names: Record<string, string>; values: Record<string, unknown> },
  alias: string,
  attribute: string,
  value: unknown,
) {
  update.sets.push(`#${alias} = if_not_exists(#${alias}, :${alias})`);
  update.names[`#${alias}`] = attribute;
  update.values[`:${alias}`] = value;
}

export class DynamoAccountStore extends DynamoTable implements AccountStore {
  private async getItem(pk: string): Promise<Record<string, unknown> | undefined> {
    const out = await this.readItem({ Key: { pk }, ConsistentRead: true });
    return out.Item;
  }

  async get(accountId: string): Promise<Account | undefined> {
    return toAccount(await this.getItem(acct(accountId)));
  }

  async recordPurchase(u: PurchaseUpdate): Promise<Account> {
    const sets = ['accountId = :id', 'updatedAt = :now', 'createdAt = if_not_exists(createdAt, :now)'];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':id': u.accountId, ':now': u.now.toISOString(), ':one': 1 };
    if (u.email) {
      sets.push('email = :email');
      values[':email'] = u.email;
    }
    names['#plan'] = 'plan';
    if (u.plan === 'lifetime') {
      sets.push('#plan = :plan', 'lifetime = :true', 'lifetimeSince = if_not_exists(lifetimeSince, :now)');
      values[':plan'] = 'lifetime';
      values[':true'] = true;
    } else {
      // Never downgrades a lifetime account; a status already known from subscription events is kept.
      sets.push('#plan = if_not_exists(#plan, :plan)');
      values[':plan'] = u.plan;
      if (u.subscriptionId) {
        sets.push('subscriptionId = if_not_exists(subscriptionId, :sid)');
        values[':sid'] = u.subscriptionId;
      }
      if (u.seedStatus) {
        sets.push('subscriptionStatus = if_not_exists(subscriptionStatus, :seed)');
        values[':seed'] = u.seedStatus;
      }
    }
    if (u.service) keepFirst({ sets, names, values }, 'svc', 'service', u.service);
    if (u.ref) keepFirst({ sets, names, values }, 'ref', 'ref', u.ref);
    const out = await this.updateItem({
      Key: { pk: acct(u.accountId) },
      UpdateExpression: `SET ${sets.join(', ')} ADD version :one`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    });
    return toAccount(out.Attributes)!;
  }

  async applySubscription(u: SubscriptionUpdate): Promise<Account | undefined> {
    const [ended1, ended2] = TERMINAL_SUBSCRIPTION_STATUSES;
    const sets = [
      'accountId = :id',
      'subscriptionId = :sid',
      'subscriptionStatus = :st',
      'subscriptionEventAt = :at',
      'cancelAtPeriodEnd = :cap',
      'updatedAt = :now',
      'createdAt = if_not_exists(createdAt, :now)',
    ];
    const values: Record<string, unknown> = {
      ':id': u.customerId,
      ':sid': u.subscriptionId,
      ':st': u.status,
      ':at': u.eventAt,
      ':cap': u.cancelAtPeriodEnd,
      ':now': u.now.toISOString(),
      ':one': 1,
      ':e1': ended1,
      ':e2': ended2,
    };
    if (u.currentPeriodEnd !== undefined) {
      sets.push('currentPeriodEnd = :cpe');
      values[':cpe'] = u.currentPeriodEnd;
    }
    const names: Record<string, string> = {};
    if (u.plan) {
      // The price billed now names the plan (a switch in the customer portal). A lifetime account keeps
      // reporting lifetime whatever this says (accountPlan reads `lifetime` first), so it is never downgraded.
      sets.push('#plan = :plan');
      names['#plan'] = 'plan';
      values[':plan'] = u.plan;
    }
    if (u.service) keepFirst({ sets, names, values }, 'svc', 'service', u.service);
    try {
      const out = await this.updateItem({
        Key: { pk: acct(u.customerId) },
        UpdateExpression: `SET ${sets.join(', ')} ADD version :one`,
        // Applies when no subscription event was applied yet (the checkout's seed may be overwritten), or the
        // event is not older than the stored one and the stored subscription has not ended — or it ended and
        // this is a newer subscription of the same customer. Equal `created` seconds apply in arrival order.
        ConditionExpression:
          'attribute_not_exists(subscriptionEventAt) OR (subscriptionEventAt <= :at AND (' +
          '(subscriptionId = :sid AND subscriptionStatus <> :e1 AND subscriptionStatus <> :e2) OR ' +
          '(subscriptionId <> :sid AND (subscriptionStatus = :e1 OR subscriptionStatus = :e2))))',
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      });
      return toAccount(out.Attributes);
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async addKey(accountId: string, keyHash: string): Promise<Account> {
    const out = await this.updateItem({
      Key: { pk: acct(accountId) },
      UpdateExpression: 'ADD keyHashes :k',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':k': new Set([keyHash]) },
      ReturnValues: 'ALL_NEW',
    });
    return toAccount(out.Attributes)!;
  }

  async removeKey(accountId: string, keyHash: string): Promise<void> {
    await this.updateItem({
      Key: { pk: acct(accountId) },
      UpdateExpression: 'DELETE keyHashes :k',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':k': new Set([keyHash]) },
    });
  }

  async linkEmail(email: string, accountId: string): Promise<void> {
    await this.updateItem({
      Key: { pk: `email#${email}` },
      UpdateExpression: 'ADD accountIds :a',
      ExpressionAttributeValues: { ':a': new Set([accountId]) },
    });
  }

  async accountsForEmail(email: string): Promise<string[]> {
    const item = await this.getItem(`email#${email}`);
    const ids = item?.accountIds;
    return ids instanceof Set ? [...(ids as Set<string>)].sort() : [];
  }

  async claimEvent(eventId: string, type: string, now: Date, leaseS: number): Promise<EventClaim> {
    const nowS = Math.floor(now.getTime() / 1000);
    const claimed = await conditionHeld(() =>
      this.updateItem({
        Key: { pk: `evt#${eventId}` },
        UpdateExpression:
          'SET #st = :processing, leaseUntil = :lease, #type = :type, receivedAt = :now, expiresAt = :exp',
        // New, or a delivery that crashed holding it (lease over). A finished event is never claimed again.
        ConditionExpression: 'attribute_not_exists(pk) OR (#st = :processing AND leaseUntil < :nowS)',
        ExpressionAttributeNames: { '#st': 'state', '#type': 'type' },
        ExpressionAttributeValues: {
          ':processing': 'processing',
          ':lease': nowS + leaseS,
          ':type': type,
          ':now': now.toISOString(),
          ':exp': nowS + EVENT_TTL_S,
          ':nowS': nowS,
        },
      }),
    );
    if (claimed) return 'claimed';
    const item = await this.getItem(`evt#${eventId}`);
    return item?.state === 'done' ? 'done' : 'busy';
  }

  async completeEvent(eventId: string, now: Date): Promise<void> {
    await this.updateItem({
      Key: { pk: `evt#${eventId}` },
      UpdateExpression: 'SET #st = :done, doneAt = :now REMOVE leaseUntil',
      ExpressionAttributeNames: { '#st': 'state' },
      ExpressionAttributeValues: { ':done': 'done', ':now': now.toISOString() },
    });
  }

  async releaseEvent(eventId: string): Promise<void> {
    // Only a claim still processing is released; a finished event stays done.
    await conditionHeld(() =>
      this.deleteItem({
        Key: { pk: `evt#${eventId}` },
        ConditionExpression: '#st = :processing',
        ExpressionAttributeNames: { '#st': 'state' },
        ExpressionAttributeValues: { ':processing': 'processing' },
      }),
    );
  }

  async getPurchase(sessionRef: string): Promise<PurchaseRecord | undefined> {
    const item = await this.getItem(`purchase#${sessionRef}`);
    if (!item) return undefined;
    const { pk: _pk, ...rest } = item;
    return rest as unknown as PurchaseRecord;
  }

  async putPurchase(purchase: PurchaseRecord): Promise<PurchaseRecord> {
    const put = await conditionHeld(() =>
      this.writeItem({
        Item: { pk: `purchase#${purchase.sessionRef}`, ...purchase },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return put ? purchase : (await this.getPurchase(purchase.sessionRef))!;
  }

  async createPickup(pickup: PickupRecord & { sealed: string }): Promise<PickupRecord> {
    const pk = `pickup#${pickup.sessionRef}`;
    const put = await conditionHeld(() =>
      this.writeItem({
        Item: { pk, ...pickup },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    if (put) return pickup;
    const { pk: _pk, ...rest } = (await this.getItem(pk))!;
    return rest as unknown as PickupRecord;
  }

  async takePickup(sessionRef: string, now: Date): Promise<PickupResult> {
    const pk = `pickup#${sessionRef}`;
    const nowS = Math.floor(now.getTime() / 1000);
    try {
      const out = await this.updateItem({
        Key: { pk },
        UpdateExpression: 'REMOVE sealed SET pickedUpAt = :now',
        // One caller removes the sealed key; every concurrent one fails this condition.
        ConditionExpression: 'attribute_exists(sealed) AND expiresAt > :nowS',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':nowS': nowS },
        ReturnValues: 'ALL_OLD',
      });
      const { pk: _pk, ...rest } = out.Attributes!;
      return { state: 'picked', pickup: rest as unknown as PickupRecord & { sealed: string } };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const item = await this.getItem(pk);
    if (!item) return { state: 'missing' };
    if (item.pickedUpAt) return { state: 'taken', pickedUpAt: String(item.pickedUpAt) };
    // Window over but TTL has not run yet (it may lag by days): drop the sealed copy now.
    await this.updateItem({
      Key: { pk },
      UpdateExpression: 'REMOVE sealed',
      ConditionExpression: 'attribute_exists(pk)',
    }).catch((e: unknown) => {
      if (!isConditionFailure(e)) throw e;
    });
    return { state: 'expired' };
  }
}
