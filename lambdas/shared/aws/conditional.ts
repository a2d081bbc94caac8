// DynamoDB conditional writes whose failed condition is an answer (already claimed, already gone, not ours), not an
// error.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/** True when a DynamoDB call failed only because its ConditionExpression did not hold. */
export function isConditionFailure(err: unknown): boolean {
  return err instanceof ConditionalCheckFailedException;
}

/** Runs a conditional write: true when it was written, false when its condition did not hold; other errors throw. */
export async function conditionHeld(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
