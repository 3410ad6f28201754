import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenLinks, MAINTAINER_DOCS, versionMismatch } from '../../scripts/lib/packageTruth.mjs';

// What the tarball says of itself: its docs lead only to what it holds (or to the repository by
// absolute URL), the maintainers' pages stay out, its version names the CHANGELOG's newest
// section. scripts/check-package.mjs checks the same on the packed tarball in CI.
const root = fileURLToPath(new URL('../..', import.meta.url));
const REPO = 'https://github.com/passport-otpless/passport-otpless';
const read = (path: string): string | undefined =>
  existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined;

describe('the package as npm would pack it', () => {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: root, encoding: 'utf8' }),
  ) as Array<{ version: string; files: Array<{ path: string }> }>;
  const shipped = packed!.files.map((file) => file.path);
  const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

  it('ships the user docs and the security policy, not the maintainers’ pages', () => {
    expect(shipped).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'SECURITY.md', 'docs/strategy.md']));
    expect(shipped.filter((file) => MAINTAINER_DOCS.includes(file))).toEqual([]);
    expect(MAINTAINER_DOCS.every((doc) => tracked.includes(doc))).toBe(true);
  });

  it('every link of a shipped doc resolves inside the package, or in the repository by absolute URL', () => {
    const docs = new Map(shipped.filter((file) => file.endsWith('.md')).map((file) => [file, read(file)!]));
    expect(docs.size).toBeGreaterThanOrEqual(20);
    expect(brokenLinks(docs, shipped, { url: REPO, files: tracked, read })).toEqual([]);
  });

  it("has the version of the CHANGELOG's newest section", () => {
    expect(versionMismatch(packed!.version, read('CHANGELOG.md')!)).toBeUndefined();
  });
});

describe('the link check', () => {
  const repository = {
    url: REPO,
    files: ['docs/performance.md', 'examples/spa/server.mjs', 'src/contact/phone.ts'],
    read: (path: string) => (path === 'docs/performance.md' ? '# Performance\n\n## Send limits\n' : undefined),
  };
  const shipped = ['README.md', 'docs/guide.md', 'docs/codes.md', 'dist/index.js'];
  const check = (markdown: string) =>
    brokenLinks(
      new Map([
        ['docs/guide.md', markdown],
        ['docs/codes.md', '# Codes\n\n## Setup errors\n'],
      ]),
      shipped,
      repository,
    ).map(({ target, why }) => `${target}: ${why}`);

  it('finds a link to what the package does not hold, and a heading that is not there', () => {
    expect(
      check(
        [
          '[perf](performance.md) [spa](../examples/spa) [src](../src/contact/phone.ts) [out](../../x.md)',
          '[ref]: ../SECURITY.md',
          '<a href="../examples/">examples</a> [code](codes.md#no-such-heading) [here](#nothing)',
        ].join('\n'),
      ),
    ).toEqual([
      'performance.md: not in the package: ship it, or link to the repository by absolute URL',
      '../examples/spa: not in the package: ship it, or link to the repository by absolute URL',
      '../src/contact/phone.ts: not in the package: ship it, or link to the repository by absolute URL',
      '../../x.md: not in the package: ship it, or link to the repository by absolute URL',
      'codes.md#no-such-heading: no such heading',
      '#nothing: no such heading',
      '../SECURITY.md: not in the package: ship it, or link to the repository by absolute URL',
      '../examples/: not in the package: ship it, or link to the repository by absolute URL',
    ]);
  });

  it('finds a repository link to a path or heading the repository does not have', () => {
    expect(
      check(`[a](${REPO}/blob/main/docs/gone.md) [b](${REPO}/blob/main/docs/performance.md#no-such-heading)`),
    ).toEqual([
      `${REPO}/blob/main/docs/gone.md: the repository has no such path`,
      `${REPO}/blob/main/docs/performance.md#no-such-heading: no such heading`,
    ]);
  });

  it('lets through shipped files and folders, headings, repository paths and other sites; code is not a link', () => {
    expect(
      check(
        [
          '[codes](codes.md#setup-errors) [readme](../README.md) [dist](../dist/) [top](/docs/codes.md)',
          `[perf](${REPO}/blob/main/docs/performance.md#send-limits) [spa](${REPO}/tree/main/examples/spa)`,
          '[issues](https://github.com/other/repo/issues) [mail](mailto:security@example.com)',
          '`[not a link](../examples/)`',
          '```md\n[not a link](../src/)\n```',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});

describe('the version check', () => {
  it('asks an unreleased section for a pre-release of its version, a released one for itself', () => {
    const unreleased = '# Changelog\n\n## Unreleased (0.2.0): the 1.0 surface\n\n## 0.1.0\n';
    expect(versionMismatch('0.2.0-dev', unreleased)).toBeUndefined();
    expect(versionMismatch('0.1.0', unreleased)).toMatch(/0\.2\.0 pre-release/);
    expect(versionMismatch('0.2.0', unreleased)).toMatch(/0\.2\.0 pre-release/);
    expect(versionMismatch('0.2.0', '## 0.2.0\n')).toBeUndefined();
    expect(versionMismatch('0.2.0-dev', '## 0.2.0\n')).toMatch(/not the CHANGELOG's newest section/);
    expect(versionMismatch('0.2.0', '# Changelog\n')).toMatch(/no version section/);
  });
});
