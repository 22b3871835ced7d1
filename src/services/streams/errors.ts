// The streams service's named refusals, with the codes @osdk/foundry.streams 2.38.0 and foundry-platform-sdk
// 1.111.0 give them (docs/streams.md, "Errors"). Each reason names the stream (dataset and branch) and, where
// there is one, the offset or field, for the journal.
import { PlatformError, conflict, invalidArgument, notFound, permissionDenied, quote } from '../../errors.js';

const where = (datasetRid: string, branch: string) => `stream ${quote(datasetRid)} branch ${quote(branch)}`;

export const streamNotFound = (datasetRid: string, streamBranchName: string) =>
  notFound('StreamNotFound', { datasetRid, streamBranchName }).because(`no ${where(datasetRid, streamBranchName)}`);
export const viewNotFound = (viewRid: string) => notFound('ViewNotFound', { viewRid }).because(`no stream has the current view ${quote(viewRid)}`);
export const streamAlreadyExists = (datasetRid: string, streamBranchName: string) =>
  conflict('StreamAlreadyExists', { datasetRid, streamBranchName }).because(`${where(datasetRid, streamBranchName)} exists already; reset it to change it`);
export const invalidStreamType = (streamType: unknown) =>
  invalidArgument('InvalidStreamType', { streamType }).because(`streamType must be LOW_LATENCY or HIGH_THROUGHPUT, got ${quote(String(streamType))}`);
export const invalidSchema = (problem: string) =>
  invalidArgument('InvalidStreamSchema', { problem }, `The stream schema is not valid: ${problem}.`).because(problem);
export const invalidParameter = (parameter: string, why: string) =>
  invalidArgument('InvalidParameterValue', { parameter }, `The parameter ${parameter} is not valid: ${why}.`).because(why);

/** `fieldName` names the first field that does not fit (a dotted path into structs, `[i]` into arrays). */
export const recordDoesNotMatch = (stream: { datasetRid: string; branch: string; viewRid: string }, fieldName: string, problem: string, index?: number) =>
  invalidArgument('RecordDoesNotMatchStreamSchema', {
    datasetRid: stream.datasetRid,
    branchName: stream.branch,
    viewRid: stream.viewRid,
    fieldName,
    ...(index === undefined ? {} : { recordIndex: index }),
  }).because(`${where(stream.datasetRid, stream.branch)}: ${index === undefined ? 'the record' : `record ${index}`} field ${quote(fieldName)}: ${problem}`);

export const recordTooLarge = (stream: { datasetRid: string; branch: string }, bytes: number, max: number) =>
  new PlatformError('REQUEST_ENTITY_TOO_LARGE', 'RecordTooLarge', {}).because(
    `${where(stream.datasetRid, stream.branch)}: a record of ${bytes} bytes is larger than the ${max} bytes a record may be`,
  );
export const batchTooLarge = (stream: { datasetRid: string; branch: string }, count: number, max: number) =>
  new PlatformError('REQUEST_ENTITY_TOO_LARGE', 'RecordTooLarge', { recordCount: count, maxRecords: max }, `A batch may hold at most ${max} records.`).because(
    `${where(stream.datasetRid, stream.branch)}: a batch of ${count} records is more than the ${max} one request may publish`,
  );
export const pastEnd = (stream: { datasetRid: string; branch: string }, startOffset: number, end: number) =>
  invalidArgument(
    'InvalidParameterValue',
    { parameter: 'startOffset', startOffset, endOffset: end },
    `startOffset ${startOffset} is past the end offset ${end} (the offset the next record gets).`,
  ).because(`${where(stream.datasetRid, stream.branch)}: a read from offset ${startOffset}, past the end offset ${end}`);

/** A build token (pipeline mode) used on a resource its app did not declare. */
export const resourceNotDeclared = (rid: string) =>
  permissionDenied('ResourceNotDeclared', { resourceRid: rid }).because(`the build token may use only its app's declared resources; ${quote(rid)} is not one`);
