// The base of every DynamoDB store: one table through the document client. Each store adds its item keys and
// expressions; this names the table on every request, so a store says only what it reads or writes. A write whose
// condition does not hold throws as the SDK does (./conditional.ts turns that into an answer where it is one).
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  type DeleteCommandInput,
  type DynamoDBDocumentClient,
  type GetCommandInput,
  type PutCommandInput,
  type QueryCommandInput,
  type ScanCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** A request's input without the table, which the store knows. */
type OnTable<T> = Omit<T, 'TableName'>;

export abstract class DynamoTable {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly table: string,
  ) {}

  protected readItem(input: OnTable<GetCommandInput>) {
    return this.db.send(new GetCommand({ TableName: this.table, ...input }));
  }

  protected writeItem(input: OnTable<PutCommandInput>) {
    return this.db.send(new PutCommand({ TableName: this.table, ...input }));
  }

  protected updateItem(input: OnTable<UpdateCommandInput>) {
    return this.db.send(new UpdateCommand({ TableName: this.table, ...input }));
  }

  protected deleteItem(input: OnTable<DeleteCommandInput>) {
    return this.db.send(new DeleteCommand({ TableName: this.table, ...input }));
  }

  protected queryItems(input: OnTable<QueryCommandInput>) {
    return this.db.send(new QueryCommand({ TableName: this.table, ...input }));
  }

  protected scanItems(input: OnTable<ScanCommandInput> = {}) {
    return this.db.send(new ScanCommand({ TableName: this.table, ...input }));
  }
}
