import { useState } from 'react';
import { initials } from '../lib/initials';
import { cx } from './cx';

export interface AvatarProps {
  name: string;
  imageUrl?: string | null;
  size?: 'sm' | 'md';
  className?: string;
}

const sizes = { sm: 'size-8 text-xs', md: 'size-10 text-sm' } as const;

/**
 * The person's picture, or their initials when there is none (or it fails to load). Decorative: show the
 * name next to it (screen readers skip the avatar).
 */
export function Avatar({ name, imageUrl, size = 'md', className }: AvatarProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const box = cx('inline-flex shrink-0 select-none items-center justify-center overflow-hidden rounded-full', sizes[size], className);
  if (imageUrl && failedUrl !== imageUrl) {
    return (
      <span className={box}>
        <img src={imageUrl} alt="" className="size-full object-cover" onError={() => setFailedUrl(imageUrl)} />
      </span>
    );
  }
  return (
    <span aria-hidden="true" className={cx(box, 'bg-primary font-semibold text-gray-900')}>
      {initials(name) || '?'}
    </span>
  );
}
