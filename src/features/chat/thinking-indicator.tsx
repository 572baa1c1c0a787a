/** Shown in the assistant's place while the reply has not started (spec: a 'Thinking' indicator). */
export function ThinkingIndicator() {
  return (
    <div role="status" className="flex items-center gap-2 py-2 text-sm text-gray-600 dark:text-gray-300">
      <span className="flex gap-1" aria-hidden>
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="size-1.5 animate-bounce rounded-full bg-gray-500 motion-reduce:animate-none dark:bg-gray-400"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </span>
      Thinking
    </div>
  );
}
