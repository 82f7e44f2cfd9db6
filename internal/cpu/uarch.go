package cpu

// uarchName names the microarchitecture for display and for the per-CPU
// preference tables in the cipher packages. Unknown parts return "".
func uarchName(vendor string, family, model int) string {
	switch vendor {
	case "GenuineIntel":
		if family != 6 {
			return ""
		}
		switch model {
		case 0x3c, 0x3f, 0x45, 0x46:
			return "Haswell"
		case 0x3d, 0x47, 0x4f, 0x56:
			return "Broadwell"
		case 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6:
			return "Skylake"
		case 0x55:
			return "Skylake-SP" // also Cascade Lake and Cooper Lake
		case 0x66:
			return "Cannon Lake"
		case 0x7d, 0x7e:
			return "Ice Lake"
		case 0x6a, 0x6c:
			return "Ice Lake-SP"
		case 0x8c, 0x8d:
			return "Tiger Lake"
		case 0xa7:
			return "Rocket Lake"
		case 0x97, 0x9a:
			return "Alder Lake"
		case 0xb7, 0xba, 0xbf:
			return "Raptor Lake"
		case 0xaa, 0xac:
			return "Meteor Lake"
		case 0xbd:
			return "Lunar Lake"
		case 0xc5, 0xc6:
			return "Arrow Lake"
		case 0x8f:
			return "Sapphire Rapids"
		case 0xcf:
			return "Emerald Rapids"
		case 0xad, 0xae:
			return "Granite Rapids"
		case 0xaf:
			return "Sierra Forest"
		}
	case "AuthenticAMD", "HygonGenuine":
		switch family {
		case 0x17:
			switch {
			case model < 0x30:
				return "Zen"
			default:
				return "Zen 2"
			}
		case 0x19:
			switch {
			case model < 0x10, model >= 0x20 && model < 0x60:
				return "Zen 3"
			default:
				return "Zen 4"
			}
		case 0x1a:
			return "Zen 5"
		}
	}
	return ""
}

// Prefer256Reason says why Prefer256 is set on this processor, or "" when it
// is not.
func Prefer256Reason() string {
	if !Detected(Prefer256) {
		return ""
	}
	return prefer256Reason(info.Vendor, info.Uarch)
}

// prefer256Reason is the per-microarchitecture table behind Prefer256: the
// Intel cores that lower their clock while 512-bit instructions run, enough
// that 256-bit kernels win in practice (Skylake-SP and Cascade Lake, and the
// Ice Lake generation: client, server, Tiger Lake, Rocket Lake), the list the
// Linux kernel's AES code also avoids 512-bit vectors on. They run as many
// AES rounds per cycle on 256-bit vectors, and the lower clock would slow the
// code around the cipher too. Sapphire Rapids and later Intel parts and AMD
// Zen 4 and 5 keep their clock, so 512-bit paths run there.
func prefer256Reason(vendor, uarch string) string {
	if vendor != "GenuineIntel" {
		return ""
	}
	switch uarch {
	case "Skylake-SP", "Cannon Lake", "Ice Lake", "Ice Lake-SP", "Tiger Lake", "Rocket Lake":
		return uarch + " lowers its clock while 512-bit instructions run"
	}
	return ""
}
