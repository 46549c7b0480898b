import { describe, expect, it } from 'vitest';
import { newId, newUuid } from '../../src/app/ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisecondsOf = (uuid: string) => parseInt(uuid.replace(/-/g, '').slice(0, 12), 16);

describe('ids', () => {
  it('gives orders version 7 UUIDs that begin with the time they were made', () => {
    const before = Date.now();
    const ids = Array.from({ length: 10_000 }, () => newUuid(Date.now()));
    const after = Date.now();
    for (const id of ids) {
      expect(id).toMatch(UUID_V7);
      expect(millisecondsOf(id)).toBeGreaterThanOrEqual(before);
      expect(millisecondsOf(id)).toBeLessThanOrEqual(after);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts UUIDs made in different milliseconds in the order they were made (new rows append to the index)', () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const now = Date.now();
      while (Date.now() === now); // the next millisecond
      made.push(newUuid(Date.now()));
    }
    expect([...made].sort()).toEqual(made);
  });

  it('takes its time from the clock it is given, not from the system', () => {
    const at = Date.parse('2030-01-02T03:04:05.678Z');
    expect(millisecondsOf(newUuid(at))).toBe(at);
    expect(newUuid(at)).toMatch(UUID_V7);
  });

  it('prefixes the other ids with what they name, followed by 26 base32 characters', () => {
    expect(newId('acc')).toMatch(/^acc_[a-z2-7]{26}$/);
    expect(newId('msg')).not.toBe(newId('msg'));
  });
});
