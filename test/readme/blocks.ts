/** A fenced code block of a markdown file. */
export interface Block {
  lang: string;
  code: string;
  /** The line of its opening fence, from 1. */
  line: number;
  /** The markdown file it is in. */
  path: string;
  /**
   * Marked `<!-- runnable -->` on the line before its fence (a blank line between is fine): a
   * complete app that starts the emulator, listens on `PORT` and prints `dev inbox: <url>`, so
   * a test can paste it into a new folder and sign in through it.
   */
  runnable: boolean;
}

/** The marker a guide puts before a block that runs as pasted. */
export const RUNNABLE_MARKER = '<!-- runnable -->';

/** Every fenced block of a markdown file, in order. */
export function codeBlocks(markdown: string, path = ''): Block[] {
  const blocks: Block[] = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(markdown); m; m = fence.exec(markdown)) {
    const before = markdown.slice(0, m.index).trimEnd();
    blocks.push({
      lang: m[1] ?? '',
      code: m[2] ?? '',
      line: markdown.slice(0, m.index).split('\n').length,
      path,
      runnable: before.endsWith(RUNNABLE_MARKER),
    });
  }
  return blocks;
}
