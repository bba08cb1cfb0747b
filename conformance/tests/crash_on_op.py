#!/usr/bin/env python3
"""Test helper: runs the Python driver (its folder is argv[1]), but the driver process dies (exit
3) on the op named by CRASH_OP, to make a crash on one op ([DRIVER.PROC.FAILURES])."""
import os, sys
sys.path.insert(0, sys.argv[1])
import driver
op = os.environ["CRASH_OP"]
def die(a):
    os._exit(3)
driver.OPS[op] = die
sys.exit(driver.main())
