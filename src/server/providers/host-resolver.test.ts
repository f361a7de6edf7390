import { testHostResolver } from '../testing/host-resolver';
import { systemHostResolver } from './host-resolver';
import { hostResolverContract } from './host-resolver.contract';

hostResolverContract('the operating system (getaddrinfo)', systemHostResolver(2_000));
hostResolverContract('the tests', testHostResolver());
