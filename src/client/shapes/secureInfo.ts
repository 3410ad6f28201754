import type { ResultSignal, SecureInfo, VpnSignal } from '../../wire/types.js';
import { boolean, number, object, string } from './check.js';

const flag = object<ResultSignal<boolean>>({ result: boolean }, {});
const bot = object<ResultSignal<string>>({ result: string }, {});
const suspectScore = object<ResultSignal<number>>({ result: number }, {});
type Member<K extends keyof SecureInfo> = NonNullable<SecureInfo[K]>;

const vpn = object<VpnSignal>(
  { result: boolean },
  {
    originCountry: string,
    originTimezone: string,
    methods: object<NonNullable<VpnSignal['methods']>>(
      {},
      { timezoneMismatch: boolean, publicVPN: boolean, auxiliaryMobile: boolean, osMismatch: boolean },
    ),
  },
);

/**
 * Risk signals. Every signal is optional (any can be absent); one that is present must have
 * its documented members (`result` of the right type, `confidence.score` a number).
 */
export const secureInfo = object<SecureInfo>(
  {},
  {
    incognito: boolean,
    confidence: object<Member<'confidence'>>({ score: number }, { revision: string }),
    bot,
    rootApps: flag,
    emulator: flag,
    vpn,
    tampering: object<Member<'tampering'>>({ result: boolean }, { anomalyScore: number }),
    jailbroken: flag,
    clonedApp: flag,
    factoryReset: object<Member<'factoryReset'>>({}, { time: string, timestamp: number }),
    frida: flag,
    suspectScore,
    privacySettings: flag,
    virtualMachine: flag,
    locationSpoofing: flag,
    developerTools: flag,
  },
);
