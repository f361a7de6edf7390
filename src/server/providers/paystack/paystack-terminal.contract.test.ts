// Paystack Terminal's push payment requests through the pushed terminal's contract suite, against
// the Paystack simulator's terminals (testing/paystack-simulator/terminals.ts), with the Paystack
// adapter's own settlement report. What only the app does with them (notices, call-offs, the
// terminals' list) is paystack-terminal.test.ts.
import { afterAll } from 'vitest';
import { systemClock } from '../../clock';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import { openTestDatabase } from '../../testing/test-app';
import { pushTerminalContract } from '../contract/push-terminal.contract';
import { paystackProvider, paystackTerminalProvider } from './paystack-provider';

let simulator: TPaystackSimulator | undefined;
let database: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
afterAll(async () => {
  await simulator?.close();
  await database?.close();
});

let terminals = 0;
/** A terminal registered on the simulator's integration now, with the presence given. */
const terminal = (online: boolean) => {
  terminals += 1;
  const id = `CONTRACT${String(terminals).padStart(4, '0')}`;
  simulator?.addTerminal(id, { online });
  return Promise.resolve(id);
};

pushTerminalContract('paystack-terminal (simulator)', async () => {
  simulator = await startPaystackSimulator();
  database = await openTestDatabase();
  const options = {
    secretKey: simulator.secretKey,
    baseUrl: simulator.url,
    db: database.db,
    clock: systemClock,
  };
  const sim = simulator;
  return {
    provider: paystackTerminalProvider(options),
    settlement: paystackProvider(options).settlement,
    readyTerminal: () => terminal(true),
    offlineTerminal: () => terminal(false),
    unknownTerminalId: 'NOSUCHTERMINAL0',
    // No notice URL: the requery reads what the card did, as it does when a notice never came.
    cardAtTerminal: (terminalId, outcome) => sim.cardAtTerminal(terminalId, outcome),
  };
});
