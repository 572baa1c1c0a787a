import { useRef, useState, type ClipboardEvent, type DragEvent } from 'react';

/** Whether a drag carries files (not text or a link being dragged around the page). */
const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

/**
 * Files dropped on the input box behave like files chosen (spec section 5); `dragging` drives the dashed border
 * while they are over it. Enter and leave fire for every child element, so a counter tells the box's own edge.
 * Pasted images with no text upload too (a paste with text is left to the text area).
 */
export function useAttachmentDrop({ enabled, onFiles }: { enabled: boolean; onFiles(files: File[]): void }) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  const dropProps = {
    onDragEnter: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      // Without this the browser opens the dropped file instead.
      e.preventDefault();
      e.dataTransfer.dropEffect = enabled ? 'copy' : 'none';
    },
    onDragLeave: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setDragging(false);
      const files = Array.from(e.dataTransfer.files);
      if (enabled && files.length) onFiles(files);
    },
  };

  const onPaste = (e: ClipboardEvent) => {
    const data = e.clipboardData;
    if (!data || data.getData('text/plain') !== '') return;
    const images = Array.from(data.files).filter((f) => f.type.startsWith('image/'));
    if (images.length === 0) return;
    e.preventDefault();
    if (enabled) onFiles(images);
  };

  return { dragging, dropProps, onPaste };
}
