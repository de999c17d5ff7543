// route-transport on its own, from IR text (the tip count shows that
// lower-pipetting ran): an incubation at 37 °C becomes heating, a move to
// the heater with its lid and a wait; the read moves the plate to the
// reader; the plate's lid comes off before the first dispense. The module
// is then lowered: only device ops and `analyze`.
// RUN: %plate opt %s --passes=route-transport | FileCheck %s --implicit-check-not=incubate --implicit-check-not=read.absorbance
module "transport" platform=bioforge1 plate=plate96 wells=8x12 capacity=350
  liquid %buffer reagent declared=10000 µL pipetted
  load (1,1) %buffer 1.3 mL
  tips 4 racks 1
  dev.pick_tips rack (1,1) mask=1111  loc=16:4 step=1
  dev.aspirate slot 5 (1,1) mask=1111 200 µL of %buffer  loc=16:4 step=1
  dev.dispense slot 1 (1,1) mask=1111 100 µL  loc=16:4 step=1
  dev.drop_tips mask=1111  loc=16:4 step=1
  incubate 600 s at 37 °C lid=on  loc=17:4 step=2
  read.absorbance at 450 nm wells=A1..A4  loc=18:4 step=3
  analyze linear at 450 nm  loc=19:4 step=4
// CHECK:      dev.aspirate slot 5 (1,1) mask=1111 200 µL of %buffer  loc=16:4 step=1
// CHECK-NEXT: dev.lid LH remove slot 1  loc=16:4 step=1
// CHECK-NEXT: dev.dispense slot 1 (1,1) mask=1111 100 µL  loc=16:4 step=1
// CHECK-NEXT: dev.drop_tips mask=1111  loc=16:4 step=1
// CHECK-NEXT: dev.set_temperature HP 37 °C  loc=17:4 step=2
// CHECK-NEXT: dev.move_plate LH 1 -> 3  loc=17:4 step=2
// CHECK-NEXT: dev.lid LH place slot 3  loc=17:4 step=2
// CHECK-NEXT: dev.wait 600 s  loc=17:4 step=2
// CHECK-NEXT: dev.heater_off HP  loc=17:4 step=2
// CHECK-NEXT: dev.move_plate
// CHECK:      dev.read_absorbance RDR at 450 nm wells=A1..A4  loc=18:4 step=3
// CHECK-NEXT: analyze linear at 450 nm  loc=19:4 step=4
