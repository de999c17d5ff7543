// Malformed IR text is a user error: each broken line is reported once, at
// LINE:COL of the text with its code, the following lines are still read,
// nothing is printed and the exit code is 1 (never a crash).
// RUN: %expect-exit 1 %plate opt %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=module
module "errors" platform=bioforge1 plate=plate96 wells=8x12 capacity=350
  liquid %buffer reagent declared=10000 µL pipetted
  liquid %buffer reagent
// CHECK: errors.pir:[[@LINE-1]]:10: error: liquid `%buffer` is declared twice; liquid names are unique in a module [E973]
  liquid %S1 calibrant wells=A1..A2 conc=5 s
// CHECK: errors.pir:[[@LINE-1]]:42: error: `5 s` is a time; `conc=` takes a concentration [E974]
  dispense 10 µL of %water->A1 tips=new  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:22: error: `%water` is not a liquid of this module; declare it with a `liquid` line before the ops [E972]
  dispence 10 µL of %buffer->A1 tips=new  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:3: error: unknown op `dispence` (did you mean `dispense`?); the ops are those of ir/Ops.def (docs/ir.md) [E971]
  dispense 10 µL of %buffer->Z1 tips=new  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:31: error: expected a well (A1..P24), found `Z1` [E970]
  note "never closed  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:30: error: expected a closing `"`, found the end of the line [E970]
  note "a \t is no escape"  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:12: error: expected an escape `\"`, `\\` or `\n`, found `t` [E970]
  incubate 600 s at 22 °C lid=maybe  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:28: error: expected `lid=on` or `lid=off`, found `lid=maybe` [E970]
  dev.pick_tips rack (1,1) mask=111111111  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:41: error: channel `9` is out of range; a head has at most 8 channels [E953]
  wait 60 s  loc=12
// CHECK: errors.pir:[[@LINE-1]]:18: error: expected a location `LINE:COL`, found `12` [E970]
  wait 60 s  loc=12:3 extra
// CHECK: errors.pir:[[@LINE-1]]:23: error: expected the end of the line, found `extra` [E970]
  wait 60 µL  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:8: error: `60 µL` is a volume; a wait takes a time [E974]
  transfer 10 µL [A1->B1,A2] tips=per_well  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:29: error: expected `->`, found `]` [E970]
  dev.pick_tips rack (99999999999,1) mask=1111  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:23: error: number `99999999999` is out of range; whole numbers in IR text fit 32 bits [E979]
  dispense 10 µL of %buffer->B2..A1 tips=new  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:31: error: well range `B2..A1` is out of range; a range goes from its top left well to its bottom right one [E952]
  dev.pick_tips rack (1,1) mask=00000000000000000000000000000000000000000000000000000000000000000  loc=5:1
// CHECK: errors.pir:[[@LINE-1]]:33: error: mask `00000000000000000000000000000000000000000000000000000000000000000` is out of range; a mask has at most 64 digits [E954]
  liquid %late reagent
// CHECK: errors.pir:[[@LINE-1]]:3: error: `liquid` line after the ops; a module lists its header, liquids, loading plan, tip count, then ops [E975]
// CHECK: 17 errors generated.
