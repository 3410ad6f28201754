// Types for the standards package the contact rules use (it ships none of its own).

declare module 'tr46' {
  /** UTS #46 processing options (https://www.unicode.org/reports/tr46/#Processing). */
  export interface Uts46Options {
    checkBidi?: boolean;
    checkHyphens?: boolean;
    checkJoiners?: boolean;
    ignoreInvalidPunycode?: boolean;
    transitionalProcessing?: boolean;
    useSTD3ASCIIRules?: boolean;
    verifyDNSLength?: boolean;
  }
  /** The A-label form, or `null` when the domain fails a check. */
  export function toASCII(domain: string, options?: Uts46Options): string | null;
  /** The U-label form, and whether a check failed. */
  export function toUnicode(domain: string, options?: Uts46Options): { domain: string; error: boolean };
}
