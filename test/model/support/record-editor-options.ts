import type { LeftOut } from './model-paths';

/**
 * The record editor's transitions that a page using it never takes, because the page does not use those options
 * (machines/record-editor.machine.ts; the editor's own model test takes them). The pages' model tests expect exactly
 * these to be missing (`notTakenByThisInput`), and their browser paths count them as no browser can cause them.
 */

export const clientsListLeavesOut: LeftOut = {
  why:
    "the record editor's options the clients page does not use: its switch never asks first (so never confirming, " +
    "nor asked again), every act puts the server's copy in place, a refused one is never 'gone already', and no save " +
    'waits to read the list later',
  transitions: [
    'recordEditor.browsing --record.act#1--> recordEditor.confirming',
    'recordEditor.saving --xstate.done.actor.save#0--> recordEditor.browsing',
    'recordEditor.confirming --act.confirm#0--> recordEditor.acting',
    'recordEditor.confirming --act.cancel#1--> recordEditor.browsing',
    'recordEditor.acting --xstate.done.actor.act#1--> recordEditor.browsing',
    'recordEditor.acting --xstate.done.actor.act#2--> recordEditor.browsing',
    'recordEditor.acting --xstate.error.actor.act#3--> recordEditor.browsing',
    'recordEditor.acting --xstate.error.actor.act#4--> recordEditor.confirming',
  ],
};

export const departmentsAdminLeavesOut: LeftOut = {
  why:
    "the record editor's options the departments page does not use: it filters nothing, has no retry button, reads " +
    'the list again after every save; its only act is a delete, asked first, after which the list is read again, ' +
    'and a failed one closes the question',
  transitions: [
    'recordEditor --list.filter#2--> (self)',
    'recordEditor --list.retry#3--> (self)',
    'recordEditor.browsing --record.act#2--> recordEditor.acting',
    'recordEditor.saving --xstate.done.actor.save#1--> recordEditor.browsing',
    'recordEditor.acting --xstate.done.actor.act#0--> recordEditor.browsing',
    'recordEditor.acting --xstate.done.actor.act#1--> recordEditor.browsing',
    'recordEditor.acting --xstate.error.actor.act#3--> recordEditor.browsing',
    'recordEditor.acting --xstate.error.actor.act#4--> recordEditor.confirming',
  ],
};

export const usersAdminLeavesOut: LeftOut = {
  why:
    "the record editor's options the users page does not use: every save and switch shows the server's copy (a " +
    "resend keeps the list: nothing is read again), and a failed act is never 'gone already' nor asked again",
  transitions: [
    'recordEditor.saving --xstate.done.actor.save#0--> recordEditor.browsing',
    'recordEditor.saving --xstate.done.actor.save#2--> recordEditor.browsing',
    'recordEditor.acting --xstate.done.actor.act#2--> recordEditor.browsing',
    'recordEditor.acting --xstate.error.actor.act#3--> recordEditor.browsing',
    'recordEditor.acting --xstate.error.actor.act#4--> recordEditor.confirming',
  ],
};
