/**
 * The `data` of each Server-Sent Event in a stream read piece by piece (pieces may end anywhere, even inside a
 * line). Only what a chat-completions stream uses: `data:` lines (several in one event are joined with a line
 * break), a blank line ending the event; comments, `event:`, `id:` and `retry:` lines are skipped. Lines may end
 * in \n, \r\n or \r.
 */
export class SseDataReader {
  private rest = '';
  private data: string[] = [];
  /** The last piece ended in \r: a \n starting the next one belongs to that line ending. */
  private afterCr = false;

  /** The data of every event completed by this piece, in order. */
  push(piece: string): string[] {
    let text = this.rest + piece;
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = false;
    const events: string[] = [];
    let start = 0;
    // Searched again only once passed: most streams have no \r at all, and one search of the piece is enough.
    let cr = text.indexOf('\r');
    for (;;) {
      const lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      this.line(text.slice(start, end), events);
      start = end + 1;
      if (text[end] === '\r') {
        if (start === text.length) this.afterCr = true;
        else if (text[start] === '\n') start++;
      }
    }
    this.rest = text.slice(start);
    return events;
  }

  private line(line: string, events: string[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push(this.data.join('\n'));
      this.data = [];
    } else if (line.startsWith('data:')) {
      this.data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
    }
  }
}
