// A file of the view that cannot be read as the schema says: the message names the file and the row.
export class TableReadError extends Error {}
