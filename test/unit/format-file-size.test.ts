import { describe, expect, it } from 'vitest';
import { formatFileSize } from '../../src/lib/format-file-size';

describe('formatFileSize (spec: Bytes, KB, MB or GB, 1024-based, 2 decimals)', () => {
  it('picks the unit by powers of 1024 and rounds to 2 decimals', () => {
    expect([0, 1, 1023, 1024, 1536, 1024 * 1024 * 2.254, 5 * 1024 ** 3, 3 * 1024 ** 4].map(formatFileSize)).toEqual([
      '0 Bytes',
      '1 Bytes',
      '1023 Bytes',
      '1 KB',
      '1.5 KB',
      '2.25 MB',
      '5 GB',
      '3072 GB',
    ]);
  });
});
