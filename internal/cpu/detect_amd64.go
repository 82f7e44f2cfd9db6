//go:build amd64 && !purego

package cpu

func detect() {
	maxLeaf, b, c, d := cpuid(0, 0)
	info.Vendor = string(le32(b)) + string(le32(d)) + string(le32(c))
	if maxLeaf < 1 {
		return
	}
	eax1, _, ecx1, _ := cpuid(1, 0)
	family := int(eax1>>8) & 0xf
	model := int(eax1>>4) & 0xf
	if family == 0xf {
		family += int(eax1>>20) & 0xff
	}
	if family == 0x6 || family >= 0xf {
		model += int(eax1>>12) & 0xf0
	}
	info.Family, info.Model, info.Stepping = family, model, int(eax1&0xf)

	bit := func(r uint32, n uint) bool { return r>>n&1 != 0 }
	set := func(f Feature, ok bool) { detected[f].Store(ok) }
	set(SSSE3, bit(ecx1, 9))
	set(PCLMULQDQ, bit(ecx1, 1))
	set(AESNI, bit(ecx1, 25))

	// The OS must enable XSAVE and save the XMM|YMM state (XCR0 bits 1,2)
	// for AVX, plus opmask and ZMM state (bits 5,6,7) for AVX-512.
	osYMM, osZMM := false, false
	if bit(ecx1, 27) { // OSXSAVE
		xcr0, _ := xgetbv()
		osYMM = xcr0&0x6 == 0x6
		osZMM = osYMM && xcr0&0xe0 == 0xe0
	}
	set(AVX, osYMM && bit(ecx1, 28))

	if maxLeaf < 7 {
		return
	}
	_, ebx7, ecx7, _ := cpuid(7, 0)
	set(AVX2, osYMM && bit(ebx7, 5))
	set(BMI2, bit(ebx7, 8))
	set(ADX, bit(ebx7, 19))
	avx512f, avx512dq, avx512bw, avx512vl := bit(ebx7, 16), bit(ebx7, 17), bit(ebx7, 30), bit(ebx7, 31)
	set(AVX512, osZMM && avx512f && avx512dq && avx512bw && avx512vl)
	set(AVX512IFMA, osZMM && bit(ebx7, 21))
	set(AVX512VBMI2, osZMM && bit(ecx7, 6))
	set(GFNI, bit(ecx7, 8))
	set(VAES, osYMM && bit(ecx7, 9))
	set(VPCLMULQDQ, osYMM && bit(ecx7, 10))
}

func le32(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
