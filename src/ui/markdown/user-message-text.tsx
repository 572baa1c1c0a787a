import { cx } from '../cx';

export interface UserMessageTextProps {
  text: string;
  className?: string;
}

/**
 * A message not from the assistant: plain text with its line breaks and spaces kept. No markdown and no HTML;
 * React escapes the text, so "<b>" shows as typed (spec section 5).
 */
export function UserMessageText({ text, className }: UserMessageTextProps) {
  return <div className={cx('whitespace-pre-wrap break-words', className)}>{text}</div>;
}
