import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type Dispatch } from 'react';
import type { TChipReaderTransport } from '../../../domain/chip-reader-transports';
import type { TReaderOnlineRequest } from '../../../domain/chip-reader-protocol';
import type { TChipTerminalAction, TChipTerminalState } from '../../../domain/chip-terminal';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TTerminalIds } from '../../../domain/schemas/card-terminal';
import { ApiError } from '../../api/api-error';
import {
  cardTerminalApi,
  sandboxFixturesQuery,
  useSandboxFixtures,
} from '../../api/card-terminal-calls';
import type { TChipTerminalProps } from '../../contracts/consent-slots';
import { loadReaderDriver } from './load-reader-driver';
import { ReaderConnectError, type TReaderEvent, type TReaderPort } from './reader-port';

type TDriver = Awaited<ReturnType<typeof loadReaderDriver>>;
type TTerminalDispatch = Dispatch<TChipTerminalAction>;

/** How long a reader has to come back from 'Reset Device' before it counts as failed. */
const DEVICE_RESET_WAIT_MS = 5_000;

/** The reader driver (the spec's "QPOS SDK"), loaded as the modal opens. */
function useReaderDriver(dispatch: TTerminalDispatch): TDriver | null {
  const [driver, setDriver] = useState<TDriver | null>(null);
  useEffect(() => {
    let live = true;
    loadReaderDriver().then(
      (loaded) => {
        if (!live) return;
        setDriver(loaded);
        dispatch({ type: 'sdk_loaded' });
      },
      () => {
        if (live) dispatch({ type: 'sdk_load_failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [dispatch]);
  return driver;
}

type TPurchase = Pick<TChipTerminalProps, 'amount' | 'paymentId'> & {
  signedIn: boolean;
  consentId: string;
  /** fetch-keys once per reader serial (docs/terminal.md): the ids are the reader's, not secret. */
  keys: Map<string, TTerminalIds>;
  dispatch: TTerminalDispatch;
};

/** The card's online request, sent to the acquirer with the reader's ids: approved or declined. */
async function sendChipPurchase(data: TReaderOnlineRequest, purchase: TPurchase) {
  const { keys, dispatch } = purchase;
  dispatch({ type: 'online_processing_started' });
  try {
    let ids = keys.get(data.serial);
    if (!ids) {
      ids = (await cardTerminalApi.fetchKeys(data.serial)).data.data;
      keys.set(data.serial, ids);
    }
    await cardTerminalApi.chipPurchase({
      ...data,
      tid: ids.tid,
      mid: ids.mid,
      amount: purchase.amount,
      paymentId: purchase.paymentId,
      ...(purchase.signedIn ? {} : { consentId: purchase.consentId }),
    });
    dispatch({ type: 'transaction_approved' });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'TERMINAL_DECLINED') {
      dispatch({ type: 'transaction_declined', message: error.message });
    } else {
      dispatch({
        type: 'online_failed',
        message:
          error instanceof ApiError ? error.message : ERROR_CATALOGUE.API_REQUEST_FAILED.message,
      });
    }
  }
}

/** What the reader said, told to the reducer; its online request goes to the acquirer. */
function onReaderEvent(
  event: TReaderEvent,
  dispatch: TTerminalDispatch,
  resetDone: () => void,
  purchase: (data: TReaderOnlineRequest) => Promise<void>,
) {
  switch (event.type) {
    case 'card_inserted':
      dispatch({ type: 'card_inserted' });
      break;
    case 'magnetic_card':
      dispatch({ type: 'magnetic_card_swiped' });
      break;
    case 'pin_entry':
      dispatch({ type: 'pin_requested' });
      break;
    case 'online_request':
      void purchase(event.data);
      break;
    case 'error':
      if (event.code === 'DEVICE_RESET') resetDone();
      dispatch({ type: 'device_error', code: event.code });
      break;
    case 'disconnected':
      dispatch({ type: 'disconnected' });
      break;
  }
}

/**
 * Follows the connected reader's events until it is let go or the modal closes; gives back what
 * 'Reset Device' starts: the wait for the reader's DEVICE_RESET.
 */
function useReaderEvents(
  port: TReaderPort | null,
  { amount, paymentId, payer }: Pick<TChipTerminalProps, 'amount' | 'paymentId' | 'payer'>,
  dispatch: TTerminalDispatch,
) {
  const keys = useRef(new Map<string, TTerminalIds>());
  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { signedIn, consentId } = payer;
  useEffect(() => {
    if (!port) return;
    const purchase = (data: TReaderOnlineRequest) =>
      sendChipPurchase(data, {
        amount,
        paymentId,
        signedIn,
        consentId,
        keys: keys.current,
        dispatch,
      });
    const resetDone = () => {
      if (!resetTimer.current) return;
      clearTimeout(resetTimer.current);
      resetTimer.current = null;
    };
    const unsubscribe = port.subscribe((event) =>
      onReaderEvent(event, dispatch, resetDone, purchase),
    );
    return () => {
      unsubscribe();
      port.disconnect();
      if (resetTimer.current) clearTimeout(resetTimer.current);
    };
  }, [port, amount, paymentId, signedIn, consentId, dispatch]);

  return () => {
    resetTimer.current = setTimeout(() => {
      resetTimer.current = null;
      dispatch({ type: 'device_reset_failed' });
    }, DEVICE_RESET_WAIT_MS);
  };
}

type TChipReaderInput = Pick<TChipTerminalProps, 'amount' | 'paymentId' | 'payer'> & {
  transport: TChipReaderTransport;
  state: TChipTerminalState;
  dispatch: TTerminalDispatch;
};

/**
 * The reader behind the modal, reached through one port (reader-port.ts): its driver, its events,
 * and the modal's buttons (connect, start, reset the transaction or the device, disconnect).
 */
export function useChipReader(input: TChipReaderInput) {
  const { amount, transport, state, dispatch } = input;
  const driver = useReaderDriver(dispatch);
  const [port, setPort] = useState<TReaderPort | null>(null);
  // The sandbox's fixtures are asked for as the modal opens; Connect waits for them where they
  // have not come yet (a slow answer is not a reader that cannot be found).
  useSandboxFixtures();
  const queryClient = useQueryClient();
  const awaitReset = useReaderEvents(port, input, dispatch);

  const connect = async () => {
    dispatch({ type: 'connect_requested' });
    const fixtures =
      transport === 'sandbox'
        ? await queryClient.ensureQueryData(sandboxFixturesQuery).catch(() => null)
        : null;
    const next = driver?.createReaderPort(transport, fixtures) ?? null;
    if (!next) {
      dispatch({ type: 'discovery_failed' });
      return;
    }
    try {
      await next.connect();
      setPort(next);
      dispatch({ type: 'connected', characteristicsReady: true });
    } catch (error) {
      const reason = error instanceof ReaderConnectError ? error.reason : 'connect_failed';
      if (reason === 'characteristics_missing') {
        dispatch({ type: 'connected', characteristicsReady: false });
      } else {
        dispatch({ type: reason });
      }
    }
  };

  const start = async () => {
    const again = state.transaction === 'failed';
    dispatch({ type: 'transaction_started' });
    if (!port || state.connection !== 'connected') return;
    try {
      // After a failure the reader leaves the trade it refused before it takes a new one.
      if (again) await port.cancelTrade().catch(() => undefined);
      await port.startTrade(amount);
    } catch {
      dispatch({ type: 'disconnected' });
    }
  };

  const resetTransaction = () => {
    void port?.cancelTrade().catch(() => undefined);
    dispatch({ type: 'transaction_reset' });
  };

  const resetDevice = async () => {
    if (!port) return;
    try {
      await port.resetDevice();
      awaitReset();
    } catch {
      dispatch({ type: 'device_reset_failed' });
    }
  };

  const disconnect = () => {
    setPort(null);
    dispatch({ type: 'disconnected' });
  };

  return { port, connect, start, resetTransaction, resetDevice, disconnect };
}

export type TChipReader = ReturnType<typeof useChipReader>;
