import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, RUNNABLE_MARKER } from './blocks.js';
import { freshFolder, runSnippet, runSnippetToExit, STRICT_OPTIONS, typeErrors } from './freshFolder.js';
import type { FreshFolder, RunningSnippet } from './freshFolder.js';
import { emailJourney, phoneJourney, smsInsteadJourney, usedLinkJourney } from './journeys.js';

// Every code block of the README and of the guides in docs/ is checked: TypeScript blocks are
// type-checked with the project's compiler options; the blocks marked runnable (the Quick start,
// the framework guides' apps) are pasted into a new folder holding the packed package,
// type-checked there under strict settings, run over plain http against the emulator and signed
// into, by e-mail and from a phone (the Quick start also: a mobile sign-in sent again by SMS after
// the resend wait, and a link opened again after it signed in, issue 40); the shell blocks name
// only scripts and binaries that exist. The README stays short (a word count) and every relative
// link of the README, the guides and the changelog resolves.
const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const guides = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => ({ path: `docs/${f}`, text: readFileSync(join(root, 'docs', f), 'utf8') }));
const documents = [{ path: 'README.md', text: readme }, ...guides];
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
};
const generated = join(root, 'test/readme/.generated');

const blocks = documents.flatMap((d) => codeBlocks(d.text, d.path));
const tsBlocks = blocks.filter((b) => b.lang === 'ts');
const shBlocks = blocks.filter((b) => b.lang === 'sh');
const runnable = blocks.filter((b) => b.runnable);
const quickStart = runnable.find((b) => b.path === 'README.md');

mkdirSync(generated, { recursive: true });
afterAll(() => rmSync(generated, { recursive: true, force: true }));

describe('README and docs code blocks', () => {
  it('has the blocks this test expects', () => {
    expect(guides.length).toBeGreaterThanOrEqual(14);
    expect(tsBlocks.length).toBeGreaterThanOrEqual(25);
    expect(tsBlocks.filter((b) => b.path !== 'README.md').length).toBeGreaterThanOrEqual(20);
    expect(shBlocks.length).toBeGreaterThanOrEqual(3);
    expect(quickStart).toBeDefined();
    // About 15 lines of login after the imports, and not a line more than a reader takes in
    // (the last four: listen, and exit with the error when the port is taken).
    expect(quickStart!.code.trim().split('\n').length).toBeLessThanOrEqual(28);
    expect(runnable.every((b) => b.lang === 'ts')).toBe(true);
    expect(blocks.every((b) => ['ts', 'sh', 'json', ''].includes(b.lang))).toBe(true);
  });

  it('every TypeScript block type-checks against the package', () => {
    const files = tsBlocks.map((block, i) => {
      const name = block.path.replace(/[/.]/g, '_');
      const file = join(generated, `${name}-block-${i}-line-${block.line}.mts`);
      writeFileSync(file, `${block.code}\nexport {};\n`);
      return file;
    });
    const config = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const program = ts.createProgram(files, { ...parsed.options, noEmit: true, types: ['node'] });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && d.file.fileName.startsWith(generated))
      .map((d) => {
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${d.file!.fileName.split('/').pop()}:${line + 1} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    expect(problems).toEqual([]);
  }, 300_000);

  it('every `npm run` in a shell block is a script, every npx binary is ours (or, on a maintainer page, a dev tool)', () => {
    // The maintainers' pages (not shipped) may run the project's own dev tools: tsx, stryker.
    const maintainerPages = ['docs/development.md', 'docs/testing.md', 'docs/performance.md'];
    for (const block of shBlocks) {
      for (const [, script] of block.code.matchAll(/npm run ([\w:-]+)/g)) expect(pkg.scripts).toHaveProperty(script!);
      for (const [, bin] of block.code.matchAll(/npx ([\w-]+)/g)) {
        if (maintainerPages.includes(block.path))
          expect(existsSync(join(root, 'node_modules/.bin', bin!)), bin).toBe(true);
        else expect(pkg.bin).toHaveProperty(bin!);
      }
    }
    expect(pkg.scripts).toHaveProperty('test');
    expect(pkg.scripts).toHaveProperty('demo');
  });
});

/** Words of prose and code, the way `wc -w` counts them. */
function words(markdown: string): number {
  return markdown.split(/\s+/).filter(Boolean).length;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

/** Every relative link of a markdown file that names no file or heading there is. */
function brokenLinks(path: string, markdown: string): string[] {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  const broken: string[] = [];
  for (const [, target] of withoutCode.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!)) continue;
    const [file, anchor] = target!.split('#') as [string, string | undefined];
    const resolved = file === '' ? join(root, path) : join(root, dirname(path), file);
    if (!existsSync(resolved)) {
      broken.push(`${path}: ${target}`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) {
      broken.push(`${path}: ${target} (no such heading)`);
    }
  }
  return broken;
}

describe('the README is a front hall, and every link leads somewhere', () => {
  it('the README is as short as the anchors’ (424 to 950 words) and has a table of contents', () => {
    expect(words(readme)).toBeLessThanOrEqual(950);
    expect(readme).toMatch(/^## Contents$/m);
  });

  it('every relative link of the README, the guides and the changelog resolves', () => {
    const changelog = { path: 'CHANGELOG.md', text: readFileSync(join(root, 'CHANGELOG.md'), 'utf8') };
    const broken = [...documents, changelog].flatMap((d) => brokenLinks(d.path, d.text));
    expect(broken).toEqual([]);
  });

  it('the link check finds a missing file and a missing heading', () => {
    expect(
      brokenLinks('README.md', '[a](docs/nothing-here.md) [b](docs/codes.md#no-such-heading) [c](#contents)'),
    ).toEqual(['README.md: docs/nothing-here.md', 'README.md: docs/codes.md#no-such-heading (no such heading)']);
  });
});

/**
 * A secret with a fixed fallback (`?? 'dev only'`) ends up in production the day the variable
 * is forgotten, and is then known to everyone who read the README. Each pattern names one way.
 */
const FIXED_FALLBACKS: RegExp[] = [
  // A name like a secret or key, with a literal fallback later on the line: `SESSION_SECRET ?? 'x'`.
  /\b\w*(?:SECRET|KEYS?|PASSWORD|TOKEN)\w*\b[^;\n]*?(?:\?\?|\|\|)\s*\[?\s*['"`]/i,
  // A literal secret or key list in the options: `secret: 'x'`, `keys: ['x']`.
  /\b(?:secret|keys|passwords?)\s*:\s*\[?\s*['"`]/i,
  // Any literal fallback that reads like a development or sample secret.
  /(?:\?\?|\|\|)\s*['"`](?:dev\b|dev[-_ ]|secret|changeme|change[-_ ]me|keyboard cat|default|test)/i,
];

function fixedFallbacks(code: string): string[] {
  return code.split('\n').filter((line) => FIXED_FALLBACKS.some((pattern) => pattern.test(line)));
}

/** Every file of examples/ (code, and the code blocks of its READMEs), with its path. */
function exampleSources(): Array<{ path: string; code: string }> {
  const dir = join(root, 'examples');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(?:[cm]?js|[cm]?ts|md)$/.test(file))
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const code = file.endsWith('.md')
        ? codeBlocks(text)
            .map((b) => b.code)
            .join('\n')
        : text;
      return { path: `examples/${file}`, code };
    });
}

describe('no fixed fallback secret in the README or the examples', () => {
  it('the check finds the forms it is meant to find', () => {
    for (const bad of [
      "app.use(session({ secret: process.env.SESSION_SECRET ?? 'dev only', resave: false }));",
      "cookieSession({ keys: [process.env.SESSION_KEY ?? 'dev only'] })",
      "cookieSession({ name: 's', keys: ['my-signing-key'] })",
      "const secret = process.env.SECRET || 'secret';",
      "const keys = env.SESSION_KEYS?.split(',') ?? ['fallback-key'];",
      "clientSecret: process.env.OTPLESS_CLIENT_SECRET ?? 'emulator-client-secret',",
    ]) {
      expect(fixedFallbacks(bad), bad).toHaveLength(1);
    }
    for (const good of [
      "const secret = process.env.SESSION_SECRET ?? randomBytes(32).toString('hex');",
      'cookieSession({ name: "s", keys: sessionKeys })',
      "const port = Number(process.env.PORT ?? 3000); const host = env.HOST ?? '127.0.0.1';",
      "clientSecret: 'your-client-secret',",
    ]) {
      expect(fixedFallbacks(good), good).toEqual([]);
    }
  });

  it('no README or docs code block has one', () => {
    const found = blocks.flatMap((b) => fixedFallbacks(b.code).map((line) => `${b.path}:${b.line}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it('no example has one', () => {
    const sources = exampleSources();
    expect(sources.map((s) => s.path)).toEqual(expect.arrayContaining(['examples/demo.mjs']));
    const found = sources.flatMap(({ path, code }) => fixedFallbacks(code).map((line) => `${path}: ${line.trim()}`));
    expect(found).toEqual([]);
  });
});

describe('the runnable blocks, pasted into a new folder with the packed package', () => {
  let folder: FreshFolder;
  const files = new Map<string, string>();
  beforeAll(() => {
    folder = freshFolder(root);
    runnable.forEach((block, i) => {
      files.set(`${block.path}:${block.line}`, folder.write(`${block.path.replace(/[/.]/g, '_')}-${i}`, block.code));
    });
  });
  afterAll(() => folder?.remove());

  it(`finds the blocks marked ${RUNNABLE_MARKER}: the Quick start and each framework guide's app`, () => {
    expect(runnable.map((b) => b.path)).toEqual([
      'README.md',
      'docs/frameworks.md',
      'docs/frameworks.md',
      'docs/passkeys.md',
    ]);
    // A marker with no block after it marks nothing: a typo would drop a guide from the run.
    const markers = documents.reduce((n, d) => n + d.text.split(RUNNABLE_MARKER).length - 1, 0);
    expect(markers).toBe(runnable.length);
  });

  it('each type-checks, as pasted, against the packed declarations under strict settings', () => {
    expect(typeErrors(folder.dir, [...files.values()], STRICT_OPTIONS)).toEqual([]);
  }, 120_000);

  it('the Quick start on a port already taken says so and exits, instead of printing an address', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const ran = await runSnippetToExit(folder.dir, files.get(`README.md:${quickStart!.line}`)!, port);
      expect(ran.code, ran.output).not.toBe(0);
      expect(ran.output).toMatch(/EADDRINUSE/);
      expect(ran.output).not.toMatch(/open http/);
    } finally {
      taken.close();
    }
  }, 120_000);

  describe.each(runnable.map((b) => [`${b.path}:${b.line}`, b] as const))('%s', (where, block) => {
    let app: RunningSnippet | undefined;
    afterAll(() => app?.stop());
    const name = where.replace(/\W+/g, '-').toLowerCase();

    it('runs over plain http; an e-mail link signs in the browser that asked', async () => {
      app = await runSnippet(folder.dir, files.get(where)!);
      await emailJourney(app, `${name}@example.com`);
    }, 120_000);

    it('a link opened on the phone: the phone types the number the waiting page shows, the laptop signs in', async () => {
      expect(app, 'the app did not start').toBeDefined();
      await phoneJourney(app!, '+919812345678');
      expect(app!.output()).not.toMatch(/PassportOtplessWarning/);
    }, 120_000);

    // Issue 40, on the Quick start only (its 30 s resend wait is real time: the other blocks go without).
    if (block !== quickStart) return;
    it('a mobile sign-in names WhatsApp and the masked number; after the wait, "Send by SMS instead" signs the laptop in', async () => {
      expect(app, 'the app did not start').toBeDefined();
      await smsInsteadJourney(app!, '+919812340040');
    }, 150_000);

    it('a link opened again after it signed in: the error page (4xx), and "Start again" sends a new link that signs in', async () => {
      expect(app, 'the app did not start').toBeDefined();
      await usedLinkJourney(app!, `${name}-again@example.com`);
      expect(app!.output()).not.toMatch(/PassportOtplessWarning/);
    }, 120_000);
  });
});
