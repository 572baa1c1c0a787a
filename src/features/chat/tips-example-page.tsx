import { useState } from 'react';
import { Lightbulb } from 'lucide-react';
import { Button } from '../../ui/button';
import TipsModal from './tips-modal';

/** /tips-example (spec route map): the Tips modal on its own page, open on arrival. */
export default function TipsExamplePage() {
  const [open, setOpen] = useState(true);
  return (
    <div className="mx-auto flex min-h-[60dvh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">Tips</h1>
      <p className="text-gray-700 dark:text-gray-300">Short, practical guides to getting good answers from Tanya.</p>
      <Button variant="primary" onPress={() => setOpen(true)}>
        <Lightbulb aria-hidden className="size-4" /> Open tips
      </Button>
      <TipsModal isOpen={open} onClose={() => setOpen(false)} />
    </div>
  );
}
