import type { ResultSignal, SecureInfo, VpnSignal } from '../../wire/types.js';
import { boolean, integer, isoTime, mustFit, number, object, string } from './check.js';

const flag = object<ResultSignal<boolean>>({ result: boolean }, {});
const bot = object<ResultSignal<string>>({ result: string }, {});
const suspectScore = object<ResultSignal<number>>({ result: number }, {});
type Member<K extends keyof SecureInfo> = NonNullable<SecureInfo[K]>;

// Members that assessRisk judges are `mustFit`: a bad one drops its whole signal (which then
// reads as malformed), never just itself (which could leave a signal that reads as clean).
// Members it does not judge (originCountry, originTimezone, revision) are dropped alone.
const vpn = object<VpnSignal>(
  { result: boolean },
  {
    originCountry: string,
    originTimezone: string,
    methods: mustFit(
      object<NonNullable<VpnSignal['methods']>>(
        {},
        {
          timezoneMismatch: mustFit(boolean),
          publicVPN: mustFit(boolean),
          auxiliaryMobile: mustFit(boolean),
          osMismatch: mustFit(boolean),
        },
      ),
    ),
  },
);

/**
 * Risk signals. Every signal is optional (any can be absent). A signal that is present but
 * malformed (`result` of the wrong type, `confidence.score` not a number, ...) is dropped and
 * listed under `DROPPED_MEMBERS`, where `assessRisk` finds it and judges it `malformed`.
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
    tampering: object<Member<'tampering'>>({ result: boolean }, { anomalyScore: mustFit(number) }),
    jailbroken: flag,
    clonedApp: flag,
    factoryReset: object<Member<'factoryReset'>>({}, { time: mustFit(isoTime), timestamp: mustFit(integer) }),
    frida: flag,
    suspectScore,
    privacySettings: flag,
    virtualMachine: flag,
    locationSpoofing: flag,
    developerTools: flag,
  },
);
