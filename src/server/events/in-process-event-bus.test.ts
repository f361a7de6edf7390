import { eventBusContract } from './event-bus.contract';
import { inProcessEventBus } from './in-process-event-bus';

eventBusContract('in-process', async (options) => ({ bus: inProcessEventBus(options) }));
