// The datasets service's named refusals, with the codes `@osdk/foundry.datasets` 2.38.0 and foundry-platform-sdk
// 1.111.0 give them (docs/datasets.md, "Errors"). Each carries a plain-words reason naming the dataset, branch
// and transaction for the journal.
import { PlatformError, conflict, invalidArgument, notFound, quote } from '../../errors.js';
import type { TransactionRecord } from './model.js';
import { TOKEN_PREFIX } from '../../platform-constants.js';
import { byteStoreFull as sharedByteStoreFull } from '../../blobs/index.js';

const NAME_LIKE = /^[\p{L}\p{N}_.:@/ +-]+$/u;
/**
 * An id or name as a reason shows it: quoted when it looks like one (letters, digits and `_.:@/ +-`); anything
 * else (a value with `;` or `=`, several fields joined, or a token put in the wrong parameter) is described, so
 * that a secret given by mistake reaches neither the journal nor the log. The wire's parameters still carry it.
 */
export const shown = (value: string): string =>
  value === '' || (NAME_LIKE.test(value) && !value.startsWith(TOKEN_PREFIX)) ? quote(value) : `(a value of ${value.length} characters, not shown)`;

export const datasetNotFound = (datasetRid: string) => notFound('DatasetNotFound', { datasetRid }).because(`no dataset ${shown(datasetRid)}`);
export const branchNotFound = (datasetRid: string, branchName: string) =>
  notFound('BranchNotFound', { datasetRid, branchName }).because(`dataset ${shown(datasetRid)} has no branch ${shown(branchName)}`);
export const resourceNameAlreadyExists = (parentFolderRid: string, displayName: string) =>
  conflict('ResourceNameAlreadyExists', { parentFolderRid, displayName }).because(
    `the folder ${shown(parentFolderRid)} holds a dataset named ${shown(displayName)} already`,
  );
/** A branch with no committed transaction has no view (the Python SDK's put_schema names this error). */
export const datasetViewNotFound = (datasetRid: string, branch: string) =>
  notFound('DatasetViewNotFound', { datasetRid, branch }).because(
    `branch ${shown(branch)} of dataset ${shown(datasetRid)} has no committed transaction: no view to attach a schema to`,
  );
export const branchAlreadyExists = (datasetRid: string, branchName: string) =>
  conflict('BranchAlreadyExists', { datasetRid, branchName }).because(`dataset ${shown(datasetRid)} has a branch ${shown(branchName)} already`);
export const invalidBranchName = (branchName: string) =>
  invalidArgument('InvalidBranchName', { branchName }).because(`branch name ${shown(branchName)} is empty, a dot segment, or looks like a rid or a UUID`);
export const transactionNotFound = (datasetRid: string, transactionRid: string) =>
  notFound('TransactionNotFound', { datasetRid, transactionRid }).because(`dataset ${shown(datasetRid)} has no transaction ${shown(transactionRid)}`);
export const transactionNotOpen = (t: TransactionRecord, transactionStatus: string = t.status) =>
  invalidArgument('TransactionNotOpen', { datasetRid: t.datasetRid, transactionRid: t.rid, transactionStatus }).because(
    `transaction ${shown(t.rid)} on branch ${shown(t.branch)} of dataset ${shown(t.datasetRid)} is ${transactionStatus}, not OPEN`,
  );
export const transactionNotCommitted = (t: TransactionRecord) =>
  invalidArgument('TransactionNotCommitted', { datasetRid: t.datasetRid, transactionRid: t.rid, transactionStatus: t.status }).because(
    `transaction ${shown(t.rid)} on branch ${shown(t.branch)} of dataset ${shown(t.datasetRid)} is ${t.status}, not COMMITTED`,
  );
/** `open`: the transaction that holds the branch, when it is still there to name. */
export const openTransactionAlreadyExists = (datasetRid: string, branchName: string, open?: string) =>
  conflict('OpenTransactionAlreadyExists', { datasetRid, branchName }).because(
    `branch ${shown(branchName)} of dataset ${shown(datasetRid)} has an open transaction already${open === undefined ? '' : ` (${shown(open)})`}`,
  );
export const invalidTransactionType = (datasetRid: string, transactionRid: string, transactionType: string, why: string) =>
  invalidArgument('InvalidTransactionType', { datasetRid, transactionRid, transactionType }).because(why);
// FileAlreadyExists carries NOT_FOUND in both SDKs (odd, but theirs).
export const fileAlreadyExists = (t: TransactionRecord, path: string) =>
  notFound('FileAlreadyExists', { datasetRid: t.datasetRid, transactionRid: t.rid, path }).because(
    `an APPEND transaction ${shown(t.rid)} on branch ${shown(t.branch)} of dataset ${shown(t.datasetRid)} may not overwrite ${quote(path)}, already in the view`,
  );
export const fileNotFound = (datasetRid: string, filePath: string, where: string) =>
  notFound('FileNotFound', { datasetRid, filePath }).because(`no file ${quote(filePath)} in ${where} of dataset ${shown(datasetRid)}`);
// Content and delete know only these two (the SDK's lists for those calls hold no plain FileNotFound).
export const fileNotFoundOnBranch = (datasetRid: string, branchName: string, path: string) =>
  notFound('FileNotFoundOnBranch', { datasetRid, branchName, path }).because(
    `no file ${quote(path)} on branch ${shown(branchName)} of dataset ${shown(datasetRid)}`,
  );
export const fileNotFoundOnTransactionRange = (datasetRid: string, path: string, endTransactionRid: string, startTransactionRid?: string) =>
  notFound('FileNotFoundOnTransactionRange', {
    datasetRid,
    ...(startTransactionRid === undefined ? {} : { startTransactionRid }),
    endTransactionRid,
    path,
  }).because(`no file ${quote(path)} in the view ending at transaction ${shown(endTransactionRid)} of dataset ${shown(datasetRid)}`);
export const schemaNotFound = (datasetRid: string, branchName: string, transactionRid?: string) =>
  notFound('SchemaNotFound', { datasetRid, branchName, ...(transactionRid === undefined ? {} : { transactionRid }) }).because(
    `branch ${shown(branchName)} of dataset ${shown(datasetRid)} has no schema`,
  );
export const invalidParameterCombination = (validCombinations: string[][], providedParameters: string[], why: string) =>
  invalidArgument('InvalidParameterCombination', { validCombinations, providedParameters }).because(why);
export const invalidFilePath = (filePath: string, why: string) =>
  invalidArgument('InvalidFilePath', { filePath }, 'The file path is not valid.').because(`file path ${quote(filePath)}: ${why}`);
/**
 * A file of the view could not be read as a table. The SDKs give ReadTableError INTERNAL (500); it is the
 * caller's data that is wrong, so we answer 400 under the same name (docs/datasets.md, "Errors").
 */
export const readTableError = (datasetRid: string, message: string) =>
  new PlatformError(
    'INVALID_ARGUMENT',
    'ReadTableError',
    { datasetRid, message },
    'An error occurred while reading the table. Refer to the message for more details.',
  ).because(message);
export const columnNotFound = (datasetRid: string, column: string) =>
  invalidArgument('ColumnTypesNotSupported', { datasetRid }, `The column ${quote(column)} is not in the dataset's schema.`).because(
    `column ${quote(column)} is not in the schema`,
  );
/** The memory byte store holds its most (limits.max_memory_blob_bytes): 413 as an oversize file is, nothing stored. */
export const byteStoreFull = (maxHeldBytes: number) => sharedByteStoreFull(maxHeldBytes, 'delete files, reset, or raise the limit');
export const fileTooLarge = (maxBytes: number) =>
  new PlatformError(
    'REQUEST_ENTITY_TOO_LARGE',
    'FileTooLarge',
    { maxBytes },
    `The file is larger than ${maxBytes} bytes (limits.max_dataset_file_bytes).`,
  ).because(`the upload passed limits.max_dataset_file_bytes (${maxBytes})`);
