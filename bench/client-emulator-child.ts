// The emulator of bench/client.ts, in its own process so that its work does not share the
// event loop (and CPU time) of the client being measured. Talks to the parent over IPC.
import { EMULATOR_DEFAULT_CLIENT, startEmulator } from '../src/emulator/index.js';

const emu = await startEmulator({ quiet: true });
const token = emu.issueToken({ email: 'bench@example.com' });

const stop = async () => {
  await emu.close();
  process.exit(0);
};
process.on('message', (message) => {
  if (message === 'close') void stop();
});
// The parent went away (crash, Ctrl-C): do not linger.
process.on('disconnect', () => void stop());

process.send?.({ authUrl: emu.authUrl, userAuthUrl: emu.userAuthUrl, token, ...EMULATOR_DEFAULT_CLIENT });
