// What the published package must say truthfully about itself: its docs link only to what the
// tarball holds (or to the repository by absolute URL, to a path the repository has), the
// maintainers' pages stay out of it, and its version names the CHANGELOG's newest section.
// Pure functions over file lists and texts, so a test can feed them anything.

/** Pages for the people who work on the package: kept in the repository, not shipped. */
export const MAINTAINER_DOCS = ['docs/development.md', 'docs/performance.md', 'docs/testing.md'];

/** Every link target in a Markdown text: inline links and images, reference definitions, HTML href/src. */
export function linkTargets(markdown) {
  // Code is not a link: fenced blocks and inline code spans are taken out first.
  const text = markdown.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)) targets.push(m[1]);
  for (const m of text.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/gi)) targets.push(m[1]);
  return targets;
}

/** `a/b/../c` to `a/c`; undefined when the path climbs out of the package. */
function normalize(path) {
  const parts = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** True when the Markdown text has a heading whose anchor is `anchor`. */
function hasAnchor(markdown, anchor) {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  return [...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].some((m) => slug(m[1]) === anchor);
}

/** Why a link's `#anchor` names no heading of the Markdown text it leads to, if it does not. */
function missingAnchor(target, markdown) {
  const anchor = target.split('#')[1];
  if (anchor === undefined || markdown === undefined || hasAnchor(markdown, decodeURIComponent(anchor))) return [];
  return ['no such heading'];
}

/** True when `path` is a shipped file, or a folder holding one ('' is the package itself). */
function holds(files, path) {
  return path === '' || files.has(path) || [...files].some((file) => file.startsWith(`${path}/`));
}

/**
 * The links of the shipped Markdown files that lead nowhere, as `{ file, target, why }`.
 *
 * @param docs the shipped Markdown files: path in the package -> text
 * @param shipped every path in the tarball (package-relative, `/`-separated)
 * @param repository the repository's URL (`https://github.com/owner/name`), the paths it tracks
 *   and `read(path)`, a tracked file's text: a link into it (`/blob/<ref>/path`, `/tree/<ref>/path`)
 *   must name a path it has, and a heading there when it names one
 */
export function brokenLinks(docs, shipped, repository) {
  const files = new Set(shipped);
  const tracked = new Set(repository.files);
  const prefix = `${repository.url.replace(/\/$/, '')}/`;
  const broken = [];
  for (const [file, markdown] of docs) {
    for (const target of linkTargets(markdown)) {
      const path = decodeURIComponent(target.split(/[?#]/)[0]);
      if (target.startsWith(prefix)) {
        const inRepo = /^(?:blob|tree)\/[^/]+\/(.*)$/.exec(target.slice(prefix.length).split(/[?#]/)[0]);
        if (!inRepo) continue;
        const resolved = normalize(decodeURIComponent(inRepo[1]));
        if (resolved === undefined || !holds(tracked, resolved)) {
          broken.push({ file, target, why: 'the repository has no such path' });
        } else if (resolved.endsWith('.md')) {
          for (const why of missingAnchor(target, repository.read(resolved))) broken.push({ file, target, why });
        }
        continue;
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      const base = path.startsWith('/') ? '' : file.split('/').slice(0, -1).join('/');
      const resolved = target.startsWith('#') ? file : normalize(`${base}/${path}`);
      if (resolved === undefined || !holds(files, resolved)) {
        broken.push({ file, target, why: 'not in the package: ship it, or link to the repository by absolute URL' });
      } else if (resolved.endsWith('.md')) {
        for (const why of missingAnchor(target, docs.get(resolved))) broken.push({ file, target, why });
      }
    }
  }
  return broken;
}

/**
 * Why `version` does not name the CHANGELOG's newest section, or undefined when it does:
 * `## 0.2.0` asks for exactly 0.2.0; `## Unreleased (0.2.0)` for a 0.2.0 pre-release (0.2.0-dev).
 */
export function versionMismatch(version, changelog) {
  const heading = /^## +(.+)$/m.exec(changelog)?.[1];
  if (!heading) return 'the CHANGELOG has no version section';
  const unreleased = /^Unreleased\s*\((\d+\.\d+\.\d+)\)/i.exec(heading);
  if (unreleased) {
    if (version.startsWith(`${unreleased[1]}-`)) return undefined;
    return `version ${version} should be a ${unreleased[1]} pre-release (such as ${unreleased[1]}-dev): the CHANGELOG's newest section is "${heading}"`;
  }
  const released = /^v?(\d+\.\d+\.\d+\S*)/.exec(heading);
  if (!released) return `the CHANGELOG's newest section names no version: "${heading}"`;
  if (released[1] === version) return undefined;
  return `version ${version} is not the CHANGELOG's newest section, ${released[1]}`;
}
