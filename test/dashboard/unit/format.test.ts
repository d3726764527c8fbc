import { describe, expect, it } from 'vitest';
import { LOGO_MAX_BYTES } from '../../../shared/domain/images.ts';
import { POLICY_MAX_BYTES } from '../../../shared/domain/policies.ts';
import { formatBytes } from '../../../shared/dashboard/kit/format.tsx';

describe('file sizes as the pages show them', () => {
  it('shows a file under 1 KiB in its exact bytes, never rounded up to a KiB', () => {
    expect(formatBytes(26)).toBe('26 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1023)).toBe('1,023 bytes');
  });

  it('shows whole KiB, rounded, from 1 KiB up to a MiB', () => {
    expect(formatBytes(1024)).toBe('1 KiB');
    expect(formatBytes(1535)).toBe('1 KiB');
    expect(formatBytes(1536)).toBe('2 KiB');
    expect(formatBytes(LOGO_MAX_BYTES)).toBe('512 KiB');
    expect(formatBytes(1023 * 1024)).toBe('1,023 KiB');
  });

  it('shows MiB to one decimal above, a size that rounds to 1,024 KiB included', () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe('1 MiB');
    expect(formatBytes(1024 * 1024)).toBe('1 MiB');
    expect(formatBytes(2.5 * 1024 * 1024)).toBe('2.5 MiB');
    expect(formatBytes(POLICY_MAX_BYTES)).toBe('10 MiB');
  });
});
