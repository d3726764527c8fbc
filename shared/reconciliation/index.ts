/**
 * The reconciliation module's front door (the reconciler, for the operator's tools): all that other modules may use
 * of it, besides its *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export { reconcile } from './reconcile.service.ts';
