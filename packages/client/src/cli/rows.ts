import { parse } from 'csv-parse/sync';

/** One top-up of the file, with the line it came from (1-based, as an editor shows it). */
export interface Row {
  readonly line: number;
  readonly phoneNumber: string;
  /** EUR, as written: at most two decimals. */
  readonly amount: string;
  readonly fastRecharge: boolean | undefined;
  readonly documentId: string | undefined;
}

export interface Problem {
  readonly line: number;
  readonly message: string;
}

const COLUMNS = ['phone_number', 'amount', 'fast_recharge', 'document_id'] as const;
const AMOUNT = /^\d{1,6}(\.\d{1,2})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FLAGS: Record<string, boolean | undefined> = { '': undefined, true: true, yes: true, '1': true, false: false, no: false, '0': false };

/**
 * Reads `phone_number,amount[,fast_recharge][,document_id]` rows, with or without a header row (a
 * header may name the columns in any order). Every row is checked before anything is ordered; each
 * problem names its line.
 */
export function readRows(text: string): { rows: Row[]; problems: Problem[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { info: true, relax_column_count: true, skip_empty_lines: true, trim: true, bom: true }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 0;
    return { rows: [], problems: [{ line, message: `not valid CSV: ${(error as Error).message}` }] };
  }
  const rows: Row[] = [];
  const problems: Problem[] = [];
  let columns: readonly string[] = COLUMNS;
  const first = records[0]?.record.map((cell) => cell.toLowerCase());
  if (first?.includes('phone_number')) {
    const unknown = first.filter((name) => !(COLUMNS as readonly string[]).includes(name));
    if (unknown.length > 0) problems.push({ line: records[0]!.info.lines, message: `unknown column(s) ${unknown.join(', ')}; the columns are ${COLUMNS.join(', ')}` });
    if (!first.includes('amount')) problems.push({ line: records[0]!.info.lines, message: 'the header names no amount column' });
    columns = first;
    records = records.slice(1);
  }
  for (const { record, info } of records) {
    const line = info.lines;
    const cell = (name: (typeof COLUMNS)[number]) => {
      const at = columns.indexOf(name);
      return at < 0 ? '' : (record[at] ?? '');
    };
    if (record.length > columns.length) problems.push({ line, message: `${record.length} values; at most ${columns.length} (${columns.join(', ')})` });
    const phoneNumber = cell('phone_number');
    const amount = cell('amount').replace(',', '.');
    const flag = cell('fast_recharge').toLowerCase();
    const documentId = cell('document_id');
    if (phoneNumber === '') problems.push({ line, message: 'the phone number is missing' });
    else if (phoneNumber.length > 64) problems.push({ line, message: 'the phone number is longer than 64 characters' });
    if (!AMOUNT.test(amount) || Number(amount) <= 0) problems.push({ line, message: `the amount "${cell('amount')}" is not an amount in EUR (such as 5 or 12.50)` });
    if (!Object.hasOwn(FLAGS, flag)) problems.push({ line, message: `fast_recharge "${cell('fast_recharge')}" is not true or false` });
    if (documentId !== '' && !UUID.test(documentId)) problems.push({ line, message: `document_id "${documentId}" is not a UUID` });
    rows.push({ line, phoneNumber, amount, fastRecharge: FLAGS[flag], documentId: documentId === '' ? undefined : documentId.toLowerCase() });
  }
  if (records.length === 0 && problems.length === 0) problems.push({ line: 1, message: 'the file has no rows' });
  return { rows, problems };
}
