import type { UploadStage } from '../../../contract/documents-constants';
import { Spinner } from '../../ui/spinner';

/**
 * Covers the text area while files attach (spec "Chat input box"): the upload stage, announced as it changes
 * (role="status"). The stage comes from the upload machine (`uploadStageOf`).
 */
export function UploadOverlay({ stage }: { stage: UploadStage }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="absolute inset-0 z-10 flex items-center justify-center gap-2 rounded-xl bg-white/90 text-sm font-medium text-gray-800 dark:bg-gray-800/90 dark:text-gray-100"
    >
      <Spinner className="size-4" />
      <span>{stage}...</span>
    </div>
  );
}
