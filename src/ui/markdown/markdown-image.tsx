import { useState } from 'react';
import { ImageOff } from 'lucide-react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { isOwnFileUrl } from '../../../shared/markers';
import { Modal } from '../modal';
import { PAGE_FILE_SCOPE } from './remark-markers';

export const IMAGE_LOAD_ERROR = 'Failed to load generated image';

export interface MarkdownImageProps {
  /** One of the server's own file URLs (remarkMarkers made other ones links); '' when the marker had none. */
  url: string;
  alt?: string;
}

/**
 * An image marker: a lazily loaded thumbnail that opens full size in an overlay (closes on Escape, on a click
 * outside and with its Close button). Inline elements only, so it may sit inside a paragraph.
 */
export function MarkdownImage({ url, alt = '' }: MarkdownImageProps) {
  const [isOpen, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);

  // Checked again here: an image from anywhere else is never loaded, whoever renders this.
  if (!url || failed || !isOwnFileUrl(url, PAGE_FILE_SCOPE)) {
    return (
      <span className="my-2 inline-flex items-center gap-2 rounded-lg border border-dashed border-gray-300 px-3 py-2 text-sm text-gray-600 dark:border-gray-600 dark:text-gray-300">
        <ImageOff aria-hidden="true" className="size-4 shrink-0" />
        {IMAGE_LOAD_ERROR}
      </span>
    );
  }

  return (
    <>
      <AriaButton
        onPress={() => setOpen(true)}
        aria-label={alt ? `Open image full size: ${alt}` : 'Open image full size'}
        className="my-2 block max-w-full cursor-zoom-in overflow-hidden rounded-lg border border-gray-200 dark:border-gray-700"
      >
        <img
          src={url}
          alt={alt}
          loading="lazy"
          decoding="async"
          onError={() => setFailed(true)}
          className="block max-h-96 max-w-full object-contain"
        />
      </AriaButton>
      <Modal isOpen={isOpen} onOpenChange={setOpen} title={alt || 'Image'} size="full">
        <span className="flex h-full items-center justify-center">
          <img src={url} alt={alt} className="max-h-full max-w-full object-contain" />
        </span>
      </Modal>
    </>
  );
}
