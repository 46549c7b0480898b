import { XMLParser } from 'fast-xml-parser';
import { parseDecimal } from './money.js';

export interface FeedRate {
  /** Units of 0.0001 RON per EUR. */
  readonly eurRon: bigint;
  /** The publishing day, YYYY-MM-DD. */
  readonly date: string;
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, parseAttributeValue: false, parseTagValue: false });

const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * Reads the EUR rate out of the National Bank of Romania feed (`DataSet/Body/Cube/Rate[@currency="EUR"]`),
 * ignoring the namespace. Returns undefined when the document has no usable EUR rate.
 */
export function parseBnrFeed(xml: string): FeedRate | undefined {
  let document: Record<string, unknown>;
  try {
    document = parser.parse(xml) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const body = (document.DataSet as Record<string, unknown> | undefined)?.Body as Record<string, unknown> | undefined;
  type Cube = { '@date'?: string; Rate?: Array<Record<string, string>> | Record<string, string> };
  const cubes = asArray(body?.Cube as Cube | Cube[] | undefined).filter((c) => typeof c['@date'] === 'string');
  cubes.sort((a, b) => (a['@date']! < b['@date']! ? 1 : -1));
  for (const cube of cubes) {
    const eur = asArray(cube.Rate).find((r) => r['@currency'] === 'EUR');
    if (!eur) continue;
    const multiplier = Number(eur['@multiplier'] ?? '1');
    const value = parseDecimal(String(eur['#text'] ?? '').trim(), 4);
    if (value === undefined || value <= 0n || multiplier !== 1 || !/^\d{4}-\d\d-\d\d$/.test(cube['@date']!)) continue;
    return { eurRon: value, date: cube['@date']! };
  }
  return undefined;
}
