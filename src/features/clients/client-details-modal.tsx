import type { Client } from '../../../contract/clients';
import { Modal } from '../../ui/modal';

/** Skeleton with the agreed props; its owner replaces the body. Open while mounted; `onClose` unmounts it. */
export function ClientDetailsModal({ client, onClose }: { client: Client; onClose: () => void }) {
  return (
    <Modal isOpen onOpenChange={(open) => !open && onClose()} title={`Client Details - ${client.client_name}`} size="3xl">
      <p>{client.client_name}</p>
    </Modal>
  );
}
