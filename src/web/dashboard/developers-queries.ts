import { useQuery } from '@tanstack/react-query';
import { ZApiKeysResponse } from '../../domain/schemas/dashboard';
import { dashboardCall } from './api';

/*
 * The Developers screen's reads, by their query keys: a change refreshes the reads it touched
 * (a webhook turned off or deleted changes its deliveries too).
 */
export const API_KEYS_KEY = ['dashboard', 'keys'];
export const WEBHOOKS_KEY = ['dashboard', 'webhooks'];
export const DELIVERIES_KEY = ['dashboard', 'deliveries'];

/** The merchant's API keys: the keys section lists them, a new webhook picks one. */
export const useApiKeys = () =>
  useQuery({ queryKey: API_KEYS_KEY, queryFn: () => dashboardCall('/keys', ZApiKeysResponse) });
