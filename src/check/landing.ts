/**
 * Reading the URL a browser landed on after the magic link: which parameter carries the code,
 * and whether the check's own `flow` parameter came back.
 */

import type { CallbackParamFinding, QueryKeptFinding } from './types.js';

/** What a landing URL says. The code is kept for the verify-code call and never shown. */
export interface LandingReading {
  /** The code, when a parameter carried one. */
  code?: string;
  /** The name of that parameter. */
  codeParam?: string;
  via?: 'query' | 'fragment';
  /** Names of every parameter, query then fragment, without values. */
  params: string[];
  /** The check's flow parameter: back with the value sent, with another value, or absent. */
  flow: 'same' | 'other' | 'absent';
}

/** The name the service's docs give (service-facts.md) and the strategy reads. */
const DOCUMENTED_NAME = 'code';
/** A value that could be a one-time code: opaque, printable, not a word or a flag. */
const CODE_LIKE = /^[\x21-\x7e]{8,4096}$/;

/**
 * A parameter name as the report may show it. A service that put the code bare in the query
 * (`?abc...`) would make the name the code: a long opaque name is shown by its length only.
 */
function shownName(name: string): string {
  return name.length >= 16 && CODE_LIKE.test(name) ? `<${name.length} characters>` : name;
}

/**
 * The landing URL as typed or pasted: surrounding space, quotes and angle brackets dropped (a
 * terminal or a chat app adds them). `undefined` unless it is an absolute http(s) or custom-scheme URL.
 */
export function cleanLandingUrl(input: string): URL | undefined {
  const text = input.trim().replace(/^[<"']+|[>"']+$/g, '');
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * Finds the code: `code` in the query, else `code` in the fragment, else the first other
 * parameter whose value looks like a code (an undocumented name is still worth reporting).
 */
export function readLanding(url: URL, flowParam: string, flowValue: string): LandingReading {
  const query = url.searchParams;
  const fragment = new URLSearchParams(url.hash.slice(1));
  const params = [...new Set([...query.keys(), ...fragment.keys()])].map(shownName);
  const flowBack = query.get(flowParam) ?? fragment.get(flowParam);
  const reading: LandingReading = {
    params,
    flow: flowBack === null ? 'absent' : flowBack === flowValue ? 'same' : 'other',
  };
  const sources: Array<['query' | 'fragment', URLSearchParams]> = [
    ['query', query],
    ['fragment', fragment],
  ];
  for (const [via, source] of sources) {
    const value = source.get(DOCUMENTED_NAME);
    if (value !== null && value !== '') return { ...reading, code: value, codeParam: DOCUMENTED_NAME, via };
  }
  for (const [via, source] of sources) {
    for (const [name, value] of source) {
      if (name !== flowParam && CODE_LIKE.test(value)) return { ...reading, code: value, codeParam: name, via };
    }
  }
  return reading;
}

/** The two findings a landing URL settles: the code's parameter, and whether the query was kept. */
export function landingFindings(
  reading: LandingReading,
  flowParam: string,
): { callbackParam: CallbackParamFinding; queryKept: QueryKeptFinding } {
  const queryKept: QueryKeptFinding = {
    outcome: reading.flow === 'same' ? 'expected' : 'unexpected',
    kept: reading.flow === 'same',
    flow: reading.flow,
    answer:
      reading.flow === 'same'
        ? `kept: the ${flowParam} parameter came back`
        : reading.flow === 'other'
          ? `changed: the ${flowParam} parameter came back with another value`
          : `dropped: no ${flowParam} parameter came back`,
  };
  if (reading.code === undefined || reading.codeParam === undefined || reading.via === undefined) {
    const names = reading.params.join(', ') || 'none';
    return {
      queryKept,
      callbackParam: { outcome: 'unexpected', params: reading.params, answer: `no code found (parameters: ${names})` },
    };
  }
  const documented = reading.codeParam === DOCUMENTED_NAME && reading.via === 'query';
  return {
    queryKept,
    callbackParam: {
      outcome: documented ? 'expected' : 'unexpected',
      name: reading.codeParam,
      via: reading.via,
      params: reading.params,
      codeLength: reading.code.length,
      answer: `${reading.codeParam} (in the ${reading.via}, ${reading.code.length} characters)`,
    },
  };
}
