import { Button } from './button';

/** The tag a list is filtered by, with the way back to every item. */
export function TagFilter({ tag, onClear }: { tag: string; onClear(): void }) {
  return (
    <p className="flex items-center gap-2 text-sm">
      Tag: <span className="rounded-full bg-primary/30 px-2 py-0.5">{tag}</span>
      <Button variant="ghost" size="sm" onPress={onClear}>
        Clear tag
      </Button>
    </p>
  );
}
