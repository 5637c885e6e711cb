export * from '../../auth/actor.js';
