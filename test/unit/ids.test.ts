import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { newId, newUuid } from '../../src/app/ids.js';

describe('ids', () => {
  it('gives orders UUIDs that sort in the order they were made (v7: new rows append to the index)', () => {
    const ids = Array.from({ length: 1_000 }, () => newUuid());
    for (const id of ids) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('prefixes the other ids with what they name, followed by 26 base32 characters', () => {
    expect(newId('acc')).toMatch(/^acc_[a-z2-7]{26}$/);
    expect(newId('msg')).not.toBe(newId('msg'));
  });
});
