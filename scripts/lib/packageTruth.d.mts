// Types of packageTruth.mjs, for the tests that import it.
export declare const MAINTAINER_DOCS: readonly string[];
export declare function linkTargets(markdown: string): string[];
export interface BrokenLink {
  file: string;
  target: string;
  why: string;
}
export interface Repository {
  url: string;
  files: readonly string[];
  read(path: string): string | undefined;
}
export declare function brokenLinks(
  docs: ReadonlyMap<string, string>,
  shipped: readonly string[],
  repository: Repository,
): BrokenLink[];
export declare function versionMismatch(version: string, changelog: string): string | undefined;
