"""Rendering on a job queue: procrastinate on the register's PostgreSQL, workers anywhere.

A job renders one stored case (its text travels in the job, so a worker needs neither the
client's files nor a shared file system) of one kind with one set of options; its result,
every format's bytes with their SHA-256, is stored in the database under the batch and a
key made of the case's SHA-256, its source and the options, and read back by the client.

Stages: ``app`` (the procrastinate app, the queue's settings, PostgreSQL only),
``results`` (the result store, with its size limit), ``tasks`` (what a job does),
``worker`` (``docgen worker``: one process per core, stalled jobs retried, status) and
``client`` (``docgen batch --queue``: validate locally, defer, collect).

Faults: a case that cannot be rendered is a result (its error), never retried; a fault of
the machine (the database gone, the store full, the worker killed) is retried with
backoff up to the attempts allowed, then reported with its cause.
"""
